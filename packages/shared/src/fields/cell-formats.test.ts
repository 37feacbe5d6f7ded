import { describe, expect, it } from 'vitest';
import {
  CellProblem,
  type ColumnFormat,
  type DateOrder,
  type DecimalMark,
  dateOrderOfLanguage,
  decimalMarkOf,
  decimalMarkOfLanguage,
  FormatEvidence,
  MONTH_NAME_LANGUAGES,
  monthIndex,
  monthNamesOf,
  readDate,
  readNumber,
} from './cell-formats.ts';
import { fieldTypeModule } from './field-types.ts';

/** The format a column with these values gets. */
function decided(
  reads: 'date' | 'number',
  values: (string | number | null)[],
  choice: DateOrder = 'mdy',
  mark: DecimalMark = '.',
) {
  const evidence = new FormatEvidence(reads);
  for (const value of values) evidence.note(value);
  return evidence.decide(choice, mark);
}

const problem = (value: unknown) => (value instanceof CellProblem ? value.message : undefined);

describe('dates', () => {
  const monthFirst = decided('date', ['12/31/2004']);
  const dayFirst = decided('date', ['31/12/2004']);

  it('reads the forms spreadsheets and providers write, whatever the order of numeric dates', () => {
    for (const [text, iso] of [
      ['2004-12-31', '2004-12-31'],
      ['2004/1/5', '2004-01-05'],
      ['Dec 31, 2004', '2004-12-31'],
      ['December 31 2004', '2004-12-31'],
      ['Sept. 30, 2004', '2004-09-30'],
      ['31 Dec 2004', '2004-12-31'],
      ['31-Dec-2004', '2004-12-31'],
      ['31-Dec-04', '2004-12-31'],
      ['1-Jan-99', '1999-01-01'],
      ['31 déc. 2004', '2004-12-31'],
      ['1er janvier 2005', '2005-01-01'],
      ['29 févr. 2008', '2008-02-29'],
      ['2004-12-31T00:00:00Z', '2004-12-31'],
      ['2004-12-31 00:00:00', '2004-12-31'],
      // Any time of day: the day as the cell writes it, whatever the time and its offset.
      ['2004-12-31 10:30', '2004-12-31'],
      ['2004-12-31T23:30:00-05:00', '2004-12-31'],
      ['2004-12-31T23:59:59.999+0100', '2004-12-31'],
      ['Dec 31, 2004 11:59 PM', '2004-12-31'],
      ['31 déc. 2004 08:15', '2004-12-31'],
    ]) {
      expect(readDate(text as string, monthFirst), text).toBe(iso);
      expect(readDate(text as string, dayFirst), text).toBe(iso);
    }
  });

  it('reads month names of other languages in the same forms as English and French ones', () => {
    for (const [text, iso] of [
      ['31. Dezember 2004', '2004-12-31'],
      ['31. Dez. 2004', '2004-12-31'],
      ['3 März 2005', '2005-03-03'],
      ['31 de diciembre de 2004', '2004-12-31'],
      ['1 de enero del 2005', '2005-01-01'],
      ['dic 31, 2004', '2004-12-31'],
      ['31 dicembre 2004', '2004-12-31'],
      ['31-ago-04', '2004-08-31'],
      ['31 de dezembro de 2004', '2004-12-31'],
      ['31 de dez. de 2004', '2004-12-31'],
      ['1 mei 2005', '2005-05-01'],
      ['mrt 3, 2005', '2005-03-03'],
      ['31 december 2004', '2004-12-31'],
      ['31. desember 2004', '2004-12-31'],
      ['31. joulukuuta 2004', '2004-12-31'],
      ['31 grudnia 2004', '2004-12-31'],
      ['31. prosince 2004', '2004-12-31'],
      ['31 decembrie 2004', '2004-12-31'],
      ['31 Aralık 2004', '2004-12-31'],
      ['31 ARALIK 2004', '2004-12-31'],
      ['17 Agustus 2005', '2005-08-17'],
      ['31 DE DICIEMBRE DE 2004', '2004-12-31'],
    ]) {
      expect(readDate(text as string, monthFirst), text).toBe(iso);
    }
    // Names only, not new shapes: "de" joins day, month and year only after the day.
    for (const text of ['31 de Foo de 2004', 'diciembre de 31, 2004', '31 de 2004', '31 diciembre de de 2004']) {
      expect(problem(readDate(text, monthFirst)), text).toMatch(/^Expected a date such as/);
    }
  });

  it('reads Greek and Cyrillic month names, long, short and as dates write them, case and accents ignored', () => {
    for (const [text, iso] of [
      ['31 декабря 2004', '2004-12-31'],
      ['31 декабря 2004 г.', '2004-12-31'],
      ['31 дек. 2004', '2004-12-31'],
      ['31 дек. 2004 г.', '2004-12-31'],
      ['1 мая 2005', '2005-05-01'],
      ['1 МАЙ 2005г.', '2005-05-01'],
      ['31 Декабрь 2004', '2004-12-31'],
      ['31 грудня 2004 р.', '2004-12-31'],
      ['1 лют. 2005 р.', '2005-02-01'],
      ['30 листопада 2004', '2004-11-30'],
      ['31 декември 2004 г.', '2004-12-31'],
      ['31. децембар 2004.', '2004-12-31'],
      ['31 снежня 2004 г.', '2004-12-31'],
      ['30 ное. 2004 г.', '2004-11-30'],
      ['31 Δεκεμβρίου 2004', '2004-12-31'],
      ['31 ΔΕΚΕΜΒΡΙΟΥ 2004', '2004-12-31'],
      ['31 Δεκέμβριος 2004', '2004-12-31'],
      ['31 ΔΕΚΈΜΒΡΙΟΣ 2004', '2004-12-31'],
      ['31 δεκεμβριοσ 2004', '2004-12-31'],
      ['31 ΔΕΚ 2004', '2004-12-31'],
      ['31 δεκ. 2004', '2004-12-31'],
      ['1 Μαΐου 2005', '2005-05-01'],
      ['1 ΜΑΪΟΥ 2005', '2005-05-01'],
      ['1 Μαΐ 2005', '2005-05-01'],
      ['Δεκ 31, 2004', '2004-12-31'],
      ['31 декабря 2004 г. 14:30', '2004-12-31'],
      ['29 февраля 2004', '2004-02-29'],
    ]) {
      expect(readDate(text as string, monthFirst), text).toBe(iso);
    }
    for (const text of [
      // No such day.
      '31 февраля 2004',
      '29 февраля 2005',
      '31 Νοεμβρίου 2004',
      // Scripts and languages not read: Georgian, Armenian, Kazakh; Cyrillic letters that only look like "Dec".
      '31 დეკემბერი 2004',
      '31 դեկտեմբերի 2004',
      '31 желтоқсан 2004',
      '31 Dес 2004',
      // After the year, only what Intl writes there (г., р.).
      '31 декабря 2004 года',
      '31 Dec 2004 foo',
    ]) {
      expect(problem(readDate(text, monthFirst)), text).toMatch(/^Expected a date such as/);
    }
  });

  it('reads Hungarian dates, the year first: 2004. december 31.', () => {
    for (const [text, iso] of [
      ['2004. december 31.', '2004-12-31'],
      ['2004. dec. 31.', '2004-12-31'],
      ['2005. január 1.', '2005-01-01'],
      ['2005. márc. 15.', '2005-03-15'],
      ['2004. SZEPT. 30', '2004-09-30'],
      ['2004. december 31. 14:30', '2004-12-31'],
      ['2004-Dec-31', '2004-12-31'],
      ['2004 Dec 31', '2004-12-31'],
    ]) {
      expect(readDate(text as string, monthFirst), text).toBe(iso);
    }
    for (const text of ['2005. febr. 29.', '2004. dec. 32.', '2004. foo 31.', '2004. dec.', '2004. dec 31 12']) {
      expect(problem(readDate(text, monthFirst)), text).toMatch(/^Expected a date such as/);
    }
  });

  it("reads Catalan dates, with de and d’ (or d') before the month", () => {
    for (const [text, iso] of [
      ['31 d’octubre de 2004', '2004-10-31'],
      ["31 d'octubre de 2004", '2004-10-31'],
      ['1 d’abril de 2005', '2005-04-01'],
      ['15 d’ag. de 2004', '2004-08-15'],
      ['30 de setembre de 2004', '2004-09-30'],
      ['31 de desembre del 2004', '2004-12-31'],
      ['31 de des. 2004', '2004-12-31'],
      ['1 de gener de 2005', '2005-01-01'],
      ['31 D’OCTUBRE DE 2004', '2004-10-31'],
    ]) {
      expect(readDate(text as string, monthFirst), text).toBe(iso);
    }
    // d’ joins the name it comes before, never the year; and September has no 31st.
    for (const text of ['31 d’foo de 2004', '31 d’octubre d’2004', '31 d’ octubre de 2004', '31 de setembre de 2004']) {
      expect(problem(readDate(text, monthFirst)), text).toMatch(/^Expected a date such as/);
    }
  });

  it('reads a day written as an ordinal when its mark fits the day', () => {
    for (const [text, iso] of [
      ['1º de enero de 2004', '2004-01-01'],
      ['1.º de enero de 2004', '2004-01-01'],
      ['1° de enero de 2004', '2004-01-01'],
      ['1º de janeiro de 2004', '2004-01-01'],
      ['1º gennaio 2004', '2004-01-01'],
      ['1er janvier 2004', '2004-01-01'],
      ['1st January 2004', '2004-01-01'],
      ['2nd January 2004', '2004-01-02'],
      ['3rd March 2004', '2004-03-03'],
      ['4th July 2004', '2004-07-04'],
      ['11th Nov 2004', '2004-11-11'],
      ['12th Dec 2004', '2004-12-12'],
      ['13th Dec 2004', '2004-12-13'],
      ['21st Dec 2004', '2004-12-21'],
      ['22nd Dec 2004', '2004-12-22'],
      ['23RD DEC 2004', '2004-12-23'],
      ['31st December 2004', '2004-12-31'],
      ['January 1st, 2004', '2004-01-01'],
      ['Feb 2nd, 2004', '2004-02-02'],
      ['March 3RD, 2004', '2004-03-03'],
    ]) {
      expect(readDate(text as string, monthFirst), text).toBe(iso);
    }
    for (const text of [
      '2st January 2004',
      '11st January 2004',
      '1th January 2004',
      'January 2st, 2004',
      'January 12nd, 2004',
      // French, Spanish and Portuguese write only the first day as an ordinal.
      '2er janvier 2004',
      '2º de enero de 2004',
      '31st February 2004',
    ]) {
      expect(problem(readDate(text, monthFirst)), text).toMatch(/^Expected a date such as/);
    }
  });

  it('has no month name that names two months in the languages read', () => {
    const { months, clashes } = monthIndex(MONTH_NAME_LANGUAGES);
    expect(clashes).toEqual([]);
    for (const language of MONTH_NAME_LANGUAGES) {
      const names = monthNamesOf(language);
      expect(names, language).toHaveLength(12);
      names.forEach((forms, index) => {
        expect(forms.length, `${language} ${index + 1}`).toBeGreaterThan(0);
        for (const name of forms) expect(months.get(name), `${language} ${name}`).toBe(index + 1);
      });
    }
    // Croatian would make listopad both October and November: such a name is left out, read as no month.
    const withCroatian = monthIndex([...MONTH_NAME_LANGUAGES, 'hr']);
    expect(withCroatian.clashes).toEqual(expect.arrayContaining(['listopad', 'lis', 'lip', 'srp']));
    expect(withCroatian.months.has('listopad')).toBe(false);
    expect(withCroatian.months.get('grudnia')).toBe(12);
    // Ukrainian listopad is written in Cyrillic: no clash, November.
    expect(withCroatian.months.get('листопад')).toBe(11);
    // Greek's standalone name (with a year), as a date writes it (alone) and short, its final sigma folded.
    expect(monthNamesOf('el')[11]).toEqual(['δεκεμβριου', 'δεκεμβριοσ', 'δεκ']);
    // Catalan's without the preposition its dates put before them.
    expect(monthNamesOf('ca')[9]).toEqual(['octubre', 'oct']);
  });

  it('reads numeric dates with the year last in the order of their column', () => {
    expect(readDate('12/31/2004', monthFirst)).toBe('2004-12-31');
    expect(readDate('03/04/2005', monthFirst)).toBe('2005-03-04');
    expect(readDate('31/12/2004', dayFirst)).toBe('2004-12-31');
    expect(readDate('03/04/2005', dayFirst)).toBe('2005-04-03');
    expect(readDate('31.12.2004', dayFirst)).toBe('2004-12-31');
    expect(readDate('12/31/04', monthFirst)).toBe('2004-12-31');
    expect(readDate('12/31/30', monthFirst)).toBe('1930-12-31');
    // A day the calendar does not have, in the column's order.
    expect(problem(readDate('31/12/2004', monthFirst))).toMatch(/^Expected a date such as/);
  });

  it("reads a numeric date with a time of day in its column's order, and decides the order from such dates", () => {
    expect(readDate('31/12/2004 14:30', dayFirst)).toBe('2004-12-31');
    expect(readDate('12/31/2004 2:30:15 PM', monthFirst)).toBe('2004-12-31');
    expect(decided('date', ['01/02/2004 09:00', '25/02/2004 17:45'])).toMatchObject({
      dateOrder: 'dmy',
      dateOrderFrom: 'values',
    });
  });

  it('refuses what names no day, and a numeric date whose order is not known', () => {
    for (const text of [
      '2005-02-29',
      'Feb 30, 2004',
      '31 Foo 2004',
      'tomorrow',
      '20041231',
      // A time of day that does not exist.
      '2004-12-31 24:00',
      '2004-12-31 10:60',
      '2004-12-31 13:00 PM',
      '2004-12-31 0:30 AM',
    ]) {
      expect(problem(readDate(text, monthFirst)), text).toMatch(/^Expected a date such as 2004-12-31/);
    }
    expect(problem(readDate('03/04/2005'))).toMatch(/choose the order/);
    expect(problem(readDate('03/04/2005', decided('date', ['13/01/2005', '01/13/2005'])))).toMatch(/both day first/);
  });

  it("decides a column's day/month order from a value with a part over 12, else takes the choice", () => {
    expect(decided('date', ['01/02/2004', '25/02/2004', 'Dec 31, 2004', null])).toEqual({
      dateOrder: 'dmy',
      dateOrderFrom: 'values',
      decimalMark: null,
      decimalMarkFrom: null,
    });
    expect(decided('date', ['01/02/2004', '02/25/2004'], 'dmy')).toMatchObject({
      dateOrder: 'mdy',
      dateOrderFrom: 'values',
    });
    expect(decided('date', ['01/02/2004', '03/04/2004'], 'dmy')).toMatchObject({
      dateOrder: 'dmy',
      dateOrderFrom: 'choice',
    });
    expect(decided('date', ['13/02/2004', '02/13/2004'])).toMatchObject({ dateOrder: null, dateOrderFrom: 'mixed' });
    // Dates that need no order leave none to choose.
    expect(decided('date', ['2004-12-31', 'Dec 31, 2004'])).toMatchObject({ dateOrder: null, dateOrderFrom: null });
  });

  it('suggests the order of the interface language', () => {
    expect(dateOrderOfLanguage('en')).toBe('mdy');
    expect(dateOrderOfLanguage('en-US')).toBe('mdy');
    expect(dateOrderOfLanguage('en-GB')).toBe('dmy');
    expect(dateOrderOfLanguage('fr')).toBe('dmy');
    expect(dateOrderOfLanguage(undefined)).toBe('mdy');
    expect(dateOrderOfLanguage('not a language!')).toBe('mdy');
  });

  it('suggests the decimal mark of the interface language', () => {
    expect(decimalMarkOfLanguage('en')).toBe('.');
    expect(decimalMarkOfLanguage('fr')).toBe(',');
    expect(decimalMarkOfLanguage('de-DE')).toBe(',');
    expect(decimalMarkOfLanguage(undefined)).toBe('.');
    expect(decimalMarkOfLanguage('not a language!')).toBe('.');
  });
});

describe('numbers', () => {
  const point = decided('number', ['3,421.567']);
  const comma = decided('number', ['3 421,567']);

  it('tells a decimal mark from what a value shows, and nothing from what could be either', () => {
    expect(decimalMarkOf('3,421.567')).toBe('.');
    expect(decimalMarkOf('3.421,567')).toBe(',');
    expect(decimalMarkOf('3 421,567')).toBe(',');
    expect(decimalMarkOf('3 421.567')).toBe('.');
    expect(decimalMarkOf('1,5')).toBe(',');
    expect(decimalMarkOf('1.50')).toBe('.');
    expect(decimalMarkOf('1.234.567')).toBe(',');
    expect(decimalMarkOf('1,234,567')).toBe('.');
    expect(decimalMarkOf('3,421')).toBeUndefined();
    expect(decimalMarkOf('1.234')).toBeUndefined();
    expect(decimalMarkOf('12')).toBeUndefined();
  });

  it("decides a column's decimal mark from its values, a point when none tells", () => {
    expect(decided('number', ['3,421', '1,5', 12])).toEqual({
      dateOrder: null,
      dateOrderFrom: null,
      decimalMark: ',',
      decimalMarkFrom: 'values',
    });
    // Marks that could be either: the chosen one; no mark at all: a point, nothing to choose.
    expect(decided('number', ['3,421', '1,234'])).toMatchObject({ decimalMark: '.', decimalMarkFrom: 'choice' });
    expect(decided('number', ['3,421', '1.234'], 'mdy', ',')).toMatchObject({
      decimalMark: ',',
      decimalMarkFrom: 'choice',
    });
    expect(decided('number', ['12', 7, '-3'], 'mdy', ',')).toMatchObject({
      decimalMark: '.',
      decimalMarkFrom: 'default',
    });
    expect(decided('number', ['3,421', '1,5'], 'mdy', '.')).toMatchObject({
      decimalMark: ',',
      decimalMarkFrom: 'values',
    });
    expect(decided('number', ['1.5', '1,5'])).toMatchObject({ decimalMark: null, decimalMarkFrom: 'mixed' });
    // A currency or percent sign does not hide the digits.
    expect(decided('number', ['1 200,50 €'])).toMatchObject({ decimalMark: ',' });
  });

  it('reads each value with the mark of its column', () => {
    expect(readNumber('3,421.567', point)).toBe(3421.567);
    expect(readNumber('3,421', point)).toBe(3421);
    expect(readNumber('3 421,567', comma)).toBe(3421.567);
    expect(readNumber('3.421,567', comma)).toBe(3421.567);
    expect(readNumber('3,421', comma)).toBe(3.421);
    expect(readNumber('3.421', comma)).toBe(3421);
    expect(readNumber('1\u202f234,5', comma)).toBe(1234.5);
    expect(readNumber("1'234.50", point)).toBe(1234.5);
    expect(readNumber('12,34,567.5', point)).toBe(1234567.5);
    expect(readNumber('1.5E+3', point)).toBe(1500);
    expect(readNumber('-12.5', point)).toBe(-12.5);
    expect(readNumber('−12.5', point)).toBe(-12.5);
    expect(readNumber('(1,200)', point)).toBe(-1200);
    expect(readNumber('0', point)).toBe(0);
  });

  it('refuses what is not a number written that way', () => {
    for (const text of ['3,4', '1,23,4', '12abc', '1.2.3,4,5', '', '-', '(-5)', '1.5.']) {
      expect(readNumber(text, point), text).toBeUndefined();
    }
    // A column whose values say both marks cannot read one that could be either.
    expect(readNumber('3,421', decided('number', ['1.5', '1,5']))).toBeUndefined();
    expect(readNumber('12', decided('number', ['1.5', '1,5']))).toBe(12);
  });

  it('drops a currency sign or code for money only, a percent sign for percentages only', () => {
    for (const [text, amount] of [
      ['$1,200.50', 1200.5],
      ['US$1,200', 1200],
      ['-$1,200', -1200],
      ['$-1,200', -1200],
      ['($1,200.00)', -1200],
      ['€ 1.200,00', 1200],
      ['1 200,00 €', 1200],
      ['CHF 1,200', 1200],
      ['1,200.00 USD', 1200],
    ] as const) {
      const format: ColumnFormat = decided('number', [text]);
      expect(readNumber(text, format, 'money'), text).toBe(amount);
      expect(readNumber(text, format), text).toBeUndefined();
    }
    expect(readNumber('12.5%', point, 'percent')).toBe(12.5);
    expect(readNumber('12,5 %', comma, 'percent')).toBe(12.5);
    expect(readNumber('12.5%', point, 'money')).toBeUndefined();
  });
});

describe('field types reading cells', () => {
  it('read with their column format; cells that hold numbers stay as they are', () => {
    const comma = decided('number', ['3 421,567']);
    expect(fieldTypeModule('decimal').importCell('3 421,567', undefined, comma)).toBe(3421.567);
    expect(fieldTypeModule('decimal').importCell(3421.567, undefined, comma)).toBe(3421.567);
    expect(fieldTypeModule('integer').importCell('1.200', undefined, comma)).toBe(1200);
    expect(fieldTypeModule('money').importCell('€1.200,50', 'amount', comma)).toBe(1200.5);
    expect(fieldTypeModule('amount').importCell('(1,200)', undefined, null)).toBe(-1200);
    expect(fieldTypeModule('percent').importCell('12,5 %', undefined, comma)).toBe(12.5);
    // Not a number: passed on for the schema to name.
    expect(fieldTypeModule('decimal').importCell('n/a', undefined, comma)).toBe('n/a');
    expect(fieldTypeModule('date').importCell('Dec 31, 2004', undefined, null)).toBe('2004-12-31');
    expect(fieldTypeModule('date').importCell('03/04/2005', undefined, decided('date', ['03/04/2005'], 'dmy'))).toBe(
      '2005-04-03',
    );
    expect(fieldTypeModule('date').importReads).toBe('date');
    expect(fieldTypeModule('money').importReads).toBe('number');
    expect(fieldTypeModule('text').importReads).toBeUndefined();
  });
});

describe('long cells', () => {
  it('refuses a number written in more than 100 characters before any pattern reads it', () => {
    // A cell may hold 100,000 characters: 100,000 digits and a letter took seconds per cell in the pattern that
    // checked a number's characters, whose digits could be split two ways (now one class, and this limit first).
    expect(readNumber(`1${'0'.repeat(99)}`)).toBe(1e99);
    expect(readNumber(`1${'0'.repeat(100)}`)).toBeUndefined();
    expect(decimalMarkOf(`${'1'.repeat(150)},5`)).toBeUndefined();
    expect(readNumber(`${'1'.repeat(100_000)}x`)).toBeUndefined();
  });
});

describe('long date cells', () => {
  it('refuses a date written in more than 64 characters before any pattern reads it', () => {
    // 100,000 spaces before a letter took seconds in the pattern that drops a midnight time (not anchored at start).
    expect(readDate(`31/12/2004${' '.repeat(100_000)}x`, null)).toBeInstanceOf(CellProblem);
    expect(readDate(`  ${'2004-12-31'}  `, null)).toBe('2004-12-31');
    const evidence = new FormatEvidence('date');
    evidence.note(`01/02/2004${' '.repeat(100_000)}x`);
    evidence.note('31/12/2004');
    expect(evidence.decide('mdy').dateOrder).toBe('dmy');
  });
});
