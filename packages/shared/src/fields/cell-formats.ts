import type { Cell } from './field-type-module.ts';

/**
 * Dates and numbers as spreadsheets and data providers write them in a file's
 * cells: `2004-12-31`, `Dec 31, 2004`, `31 Dec 2004`, `31-Dec-04`,
 * `31. Dezember 2004`, `31 de diciembre de 2004`, `31 d’octubre de 2004`,
 * `31 декабря 2004 г.`, `31 Δεκεμβρίου 2004`, `2004. december 31.`,
 * `1st January 2004`, `1.º de enero de 2004` (month names of the languages
 * of MONTH_NAME_LANGUAGES), `12/31/2004`, `31.12.2004`;
 * `3,421.567`, `3 421,567`, `3.421,567`,
 * `(1,200)`, `$1,200`, `12.5%`. What a cell alone cannot tell (is `03/04/2005`
 * the 3rd of April or March the 4th; is `3,421` three thousand or three) is
 * decided once per column, from all of its values (`FormatEvidence`), never
 * cell by cell: every cell of a column is read the same way. CSV and XLSX
 * text cells both come here; an XLSX cell that holds a number is a number
 * already and is kept as it is.
 */

/** How a date written with numbers and the year last orders its day and month: 31/12/2004, 12/31/2004. */
export const dateOrders = ['dmy', 'mdy'] as const;
export type DateOrder = (typeof dateOrders)[number];

export const decimalMarks = ['.', ','] as const;
export type DecimalMark = (typeof decimalMarks)[number];

/** What an import reads from a field type's cells in a way a column decides: dates, or numbers. */
export type CellReading = 'date' | 'number';

/**
 * How one column writes its dates or numbers. `dateOrderFrom`: `values` when
 * one of its dates has a part over 12, `choice` when every one could be read
 * either way (the import's chosen order is used), `mixed` when its values
 * say both (each such date is then a problem). `decimalMarkFrom`: `values`
 * when a number tells (`1,5`, `1.234,5`, `1 234,5`), `choice` when none does
 * but one could be read either way (`3,421`, `1.234`: the import's chosen
 * mark is used), `default` (a point) when no number has a mark at all,
 * `mixed` when they say both.
 */
export interface ColumnFormat {
  dateOrder: DateOrder | null;
  dateOrderFrom: 'values' | 'choice' | 'mixed' | null;
  decimalMark: DecimalMark | null;
  decimalMarkFrom: 'values' | 'choice' | 'default' | 'mixed' | null;
}

/** A cell an import cannot read as its field's value, with why (the row's problem for the field). */
export class CellProblem {
  constructor(readonly message: string) {}
}

/**
 * Lower case, accents (and the Turkish dotless i) and a final dot dropped: "Déc." → "dec", "Aralık" → "aralik",
 * "ΔΕΚ." → "δεκ", "Μαΐου" → "μαιου", "Май" → "маи". Lower case whatever the server's locale (toLocaleLowerCase
 * on a Turkish server reads "APRIL" as "aprıl"); Greek's final ς as σ, since tools differ on what a final capital
 * Σ lowers to ("Δεκέμβριος", "ΔΕΚΕΜΒΡΙΟΣ" and "δεκεμβριοσ" are one name).
 */
const fold = (text: string) =>
  text.normalize('NFKD').replace(/\p{M}/gu, '').replace(/ı/g, 'i').toLowerCase().replace(/ς/g, 'σ').replace(/\.$/, '');

/**
 * The languages whose month names a date may be written with, as the
 * platform's Intl (CLDR) data names them: Latin scripts, then Greek and the
 * Cyrillic languages whose dates are written day first (Serbian in its
 * Cyrillic script; Kazakh writes the year first, `2004 ж. 31 желтоқсан`, a
 * shape not read). Croatian is left out: its lipanj, srpanj and listopad
 * (June, July, October) clash with Polish and Czech lip, srp and listopad
 * (July, August, November). Greek and Cyrillic names clash with none (a test
 * checks it): Cyrillic listopad (Ukrainian November) is not the Latin one.
 */
export const MONTH_NAME_LANGUAGES = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'nl',
  'sv',
  'da',
  'nb',
  'fi',
  'pl',
  'cs',
  'ro',
  'tr',
  'id',
  'hu',
  'ca',
  'el',
  'ru',
  'uk',
  'bg',
  'sr-Cyrl',
  'be',
  'mk',
] as const;

/** The preposition Catalan's dates put before a month's name (`de desembre`, `d’octubre`): no part of the name. */
const MONTH_PREPOSITION = /^(?:de\s+|d[’'])/;

/**
 * A language's names of each month (January first), folded: long and short,
 * standalone and as a date writes them (Polish grudzień, grudnia; Russian
 * декабрь, декабря, дек.; German Dezember, Dez.), without Catalan's
 * preposition (`de desembre` is desembre). With a year as well as alone:
 * Intl names Greek's month alone as a date writes it (Δεκεμβρίου), with a
 * year standalone (Δεκέμβριος). Names that are not letters only (Czech's
 * short `12.`, Bulgarian's `12`) are left out.
 */
export function monthNamesOf(language: string): string[][] {
  const shapes = [{}, { day: 'numeric' }, { year: 'numeric' }] as const;
  const formats = (['long', 'short'] as const).flatMap((month) =>
    shapes.map((shape) => new Intl.DateTimeFormat(language, { ...shape, month, timeZone: 'UTC' })),
  );
  return Array.from({ length: 12 }, (_, month) => {
    const date = new Date(Date.UTC(2004, month, 15));
    const names = formats.map((format) => format.formatToParts(date).find((part) => part.type === 'month')?.value);
    const folded = names.map((name) => fold(name ?? '').replace(MONTH_PREPOSITION, ''));
    return [...new Set(folded)].filter((name) => /^\p{L}+$/u.test(name));
  });
}

/**
 * What a language writes after a date's year, folded, when it is a word:
 * Russian, Bulgarian, Belarusian and Macedonian `г.` (31 декабря 2004 г.),
 * Ukrainian `р.`; as Intl writes long and medium dates.
 */
function yearMarksOf(language: string): string[] {
  return (['long', 'medium'] as const).flatMap((dateStyle) => {
    const parts = new Intl.DateTimeFormat(language, { dateStyle, timeZone: 'UTC' }).formatToParts(
      new Date(Date.UTC(2004, 11, 31)),
    );
    const year = parts.findIndex((part) => part.type === 'year');
    const after = year >= 0 ? parts[year + 1] : undefined;
    const mark = after?.type === 'literal' ? fold(after.value.trim()) : '';
    return /^\p{L}+$/u.test(mark) ? [mark] : [];
  });
}

/**
 * Folded month names of these languages → month number, and the names that
 * would name two months (each left out: such a name reads as no month).
 */
export function monthIndex(languages: readonly string[]): { months: Map<string, number>; clashes: string[] } {
  const months = new Map<string, number>();
  const clashes = new Set<string>();
  for (const language of languages) {
    monthNamesOf(language).forEach((names, index) => {
      for (const name of names) {
        const month = months.get(name);
        if (month !== undefined && month !== index + 1) clashes.add(name);
        else months.set(name, index + 1);
      }
    });
  }
  for (const name of clashes) months.delete(name);
  return { months, clashes: [...clashes] };
}

/** The words read in dates, built on first use (the web app loads this module without reading a date). */
let dateWords: { months: ReadonlyMap<string, number>; yearMarks: ReadonlySet<string> } | undefined;
const words = () => {
  dateWords ??= {
    months: monthIndex(MONTH_NAME_LANGUAGES).months,
    yearMarks: new Set(MONTH_NAME_LANGUAGES.flatMap(yearMarksOf)),
  };
  return dateWords;
};
const monthNumber = (text: string) => words().months.get(fold(text));

/**
 * The longest text read as a date (`31 décembre 2004 00:00:00.000 +00:00` is 36): longer text is no date, and is
 * refused before TIME_OF_DAY, which is not anchored at its start, reads it (a cell of 100,000 spaces took seconds).
 */
const MAX_DATE_CHARS = 64;

/**
 * A time of day after a date (`2004-12-31T00:00:00Z`, `12/31/2004 0:00`, `31/12/2004 14:30`, `Dec 31, 2004 2:30 PM`,
 * `2004-12-31T23:30:00-05:00`): hours, minutes, seconds with a fraction, AM or PM, and an offset or `Z`.
 */
const TIME_OF_DAY =
  /[T\s](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?(?:\s*([AP]M))?(?:\s*(?:Z|[+-]\d{2}(?::?\d{2})?))?$/i;

/** Whether a time of day read by TIME_OF_DAY names one that exists (no 25:00, no 13:00 PM). */
function isTimeOfDay([, hours, minutes, seconds = '0', half]: RegExpExecArray): boolean {
  const hour = Number(hours);
  const hourOk = half ? hour >= 1 && hour <= 12 : hour <= 23;
  return hourOk && Number(minutes) <= 59 && Number(seconds) <= 59;
}

/**
 * A date cell's text, normalized, without its time of day (a date field keeps the day as the cell writes it,
 * whatever the time and its offset); undefined when too long to be a date, or when its time names none.
 */
function dateText(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed.length > MAX_DATE_CHARS) return undefined;
  const normalized = trimmed.normalize('NFC');
  const time = TIME_OF_DAY.exec(normalized);
  if (!time) return normalized;
  return isTimeOfDay(time) ? normalized.slice(0, time.index) : undefined;
}
const YEAR_FIRST = /^(\d{4})([-/.])(\d{1,2})\2(\d{1,2})$/;
const YEAR_LAST = /^(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})$/;
/** The month's name, the day (`1st`), the year: `Dec 31, 2004`, `January 1st, 2004`. */
const MONTH_FIRST = /^(\p{L}+\.?)\s+(\d{1,2})(st|nd|rd|th)?,?\s+(\d{4})$/iu;
/**
 * The day (with an ordinal mark: `1st`, `1er`, `1º`, `1.º`), the month's name, the year, then what a language
 * writes after the year (`г.`, `р.`: yearMarksOf) or a dot: `31 Dec 2004`, `31-Dec-04`, `1er janvier 2005`,
 * `31. Dez. 2004`, `31 de diciembre (del) 2004` as Spanish, Portuguese and Catalan write it, Catalan's
 * `31 d’octubre de 2004`, `31 дек. 2004 г.`, Serbian's `31. децембар 2004.`.
 */
const DAY_FIRST =
  /^(\d{1,2})(st|nd|rd|th|er|\.?[ºª°])?(?:\s+de\s+|\s+d[’']|\s+|[-/.\s]\s*)(\p{L}+\.?)(?:\s+del?\s+|,?\s+|[-/.]\s*)(\d{4}|\d{2})(?:\s*(\p{L}+)\.?)?\.?$/iu;
/** Year, month's name, day, as Hungarian writes them (`2004. december 31.`, `2004. dec. 31.`); `2004-Dec-31`. */
const YEAR_FIRST_NAMED = /^(\d{4})(?:\.\s*|\s+|-)(\p{L}+\.?)(?:\s+|-)(\d{1,2})\.?$/u;

/** English ordinal marks of a day by its last digit (1st, 2nd, 3rd, 4th); 11th to 13th are th. */
const ENGLISH_ORDINALS = ['th', 'st', 'nd', 'rd'];
/** Ordinal marks of the first day only: French 1er; Spanish, Portuguese, Italian 1º, 1.º, 1ª, and 1° as often typed. */
const FIRST_DAY_MARKS = new Set(['er', 'º', '.º', 'ª', '.ª', '°', '.°']);

/** Whether a day's ordinal mark fits it: any day in English (a 2nd, no 2st), only the first in French and Spanish. */
function ordinalFits(day: number, mark: string | undefined): boolean {
  if (mark === undefined) return true;
  const lower = mark.toLowerCase();
  if (FIRST_DAY_MARKS.has(lower)) return day === 1;
  return lower === (day > 10 && day < 14 ? 'th' : (ENGLISH_ORDINALS[day % 10] ?? 'th'));
}

/**
 * A two-digit year as spreadsheets read one (Excel's and LibreOffice's
 * default): 30 to 99 are 1930 to 1999, 00 to 29 are 2000 to 2029.
 */
const fullYear = (text: string) => {
  const year = Number(text);
  if (text.length === 4) return year;
  return year >= 30 ? 1900 + year : 2000 + year;
};

const pad = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DD when the day exists (no 31st of April, a 29th of February only in a leap year). */
function isoDay(year: number, month: number, day: number): string | undefined {
  if (month < 1 || month > 12 || day < 1 || year < 1000 || year > 9999) return undefined;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > last) return undefined;
  return `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}`;
}

/**
 * A date written with its month's name, as YYYY-MM-DD; undefined when the name is no month's, the day does not
 * exist or its ordinal mark does not fit it.
 */
function namedDay(year: string, name: string, day: string, mark?: string): string | undefined {
  const month = monthNumber(name);
  if (month === undefined || !ordinalFits(Number(day), mark)) return undefined;
  return isoDay(fullYear(year), month, Number(day));
}

/** A date written with numbers, the year last: its two leading parts (the order is the column's). */
function yearLastParts(text: string): [number, number, number] | undefined {
  const match = YEAR_LAST.exec(text);
  if (!match) return undefined;
  return [Number(match[1]), Number(match[3]), fullYear(match[4] as string)];
}

const DATE_EXAMPLES = '2004-12-31, Dec 31, 2004, 31 Dec 2004 or 12/31/2004';

/**
 * A date cell's text as YYYY-MM-DD, read with its column's day/month order
 * for dates written with numbers and the year last; a problem saying why
 * when it is none of the forms, names no day that exists, or its order is
 * not known (a column whose values say both).
 */
export function readDate(text: string, format?: ColumnFormat | null): string | CellProblem {
  const unreadable = new CellProblem(`Expected a date such as ${DATE_EXAMPLES}`);
  const trimmed = dateText(text);
  if (trimmed === undefined) return unreadable;
  const yearFirst = YEAR_FIRST.exec(trimmed);
  if (yearFirst) {
    return isoDay(Number(yearFirst[1]), Number(yearFirst[3]), Number(yearFirst[4])) ?? unreadable;
  }
  const parts = yearLastParts(trimmed);
  if (parts) {
    const [first, second, year] = parts;
    const order = format?.dateOrder;
    if (!order) {
      return new CellProblem(
        format?.dateOrderFrom === 'mixed'
          ? 'This column writes dates both day first (31/12/2004) and month first (12/31/2004); write them one way'
          : 'Day and month could be either way round; choose the order of the dates',
      );
    }
    const [day, month] = order === 'dmy' ? [first, second] : [second, first];
    return isoDay(year, month, day) ?? unreadable;
  }
  const monthFirst = MONTH_FIRST.exec(trimmed);
  if (monthFirst) {
    const [, name = '', day = '', mark, year = ''] = monthFirst;
    return namedDay(year, name, day, mark) ?? unreadable;
  }
  const dayFirst = DAY_FIRST.exec(trimmed);
  if (dayFirst) {
    const [, day = '', mark, name = '', year = '', yearWord] = dayFirst;
    if (yearWord !== undefined && !words().yearMarks.has(fold(yearWord))) return unreadable;
    return namedDay(year, name, day, mark) ?? unreadable;
  }
  const yearFirstNamed = YEAR_FIRST_NAMED.exec(trimmed);
  if (yearFirstNamed) {
    const [, year = '', name = '', day = ''] = yearFirstNamed;
    return namedDay(year, name, day) ?? unreadable;
  }
  return unreadable;
}

/** Spaces a number's digits are grouped with: space, no-break and narrow no-break spaces, and the Swiss apostrophes. */
const GROUP_SPACES = /[\s\u00a0\u202f'’]/g;
const GROUP_SPACE = /[\s\u00a0\u202f'’]/;
/** Currency signs and ISO 4217 codes around an amount: `$`, `US$`, `€`, `CHF`, `EUR`. */
const CURRENCY_AROUND = /^(?:[A-Z]{2}\p{Sc}|[A-Z]{3}\s?|\p{Sc}\s?)|(?:\s?[A-Z]{3}|\s?\p{Sc})$/u;

/** What may stand around a number besides its sign: a currency (money), a percent sign (a percentage). */
export type NumberSigns = 'money' | 'percent';

/** The longest text read as a number (digits, marks, sign, currency): far beyond any field's precision. */
const MAX_NUMBER_CHARS = 100;

/** A number's text split: its sign, and its digits with their marks (not yet read). */
function numberBody(text: string, signs?: NumberSigns | 'any'): { negative: boolean; body: string } | undefined {
  // No number a field holds is written in more characters; longer text is refused before any pattern reads it.
  if (text.length > MAX_NUMBER_CHARS) return undefined;
  let body = text.trim();
  let negative = false;
  // Accounting negatives: (1,200) and ($1,200).
  const bracketed = /^\((.*)\)$/.exec(body);
  if (bracketed) {
    negative = true;
    body = (bracketed[1] as string).trim();
  }
  if (signs === 'percent' || signs === 'any') body = body.replace(/\s?%$/, '');
  for (let pass = 0; pass < 2; pass += 1) {
    if (signs === 'money' || signs === 'any') body = body.replace(CURRENCY_AROUND, '').trim();
    const signed = /^([-+\u2212])\s?(.*)$/.exec(body);
    if (signed) {
      if (bracketed) return undefined;
      negative = signed[1] !== '+';
      body = signed[2] as string;
    }
  }
  // Digits with their marks (at least one digit, by lookahead: one class, so the test is linear in the text).
  if (!/^(?=\D*\d)[\d.,\s\u00a0\u202f'’]+(?:[eE][-+]?\d+)?$/.test(body)) return undefined;
  return { negative, body };
}

/**
 * What a number's text says of its decimal mark: `1,234.5`, `1.5`, `1.234.567`,
 * `1 234.567` say a point; `1.234,5`, `1,5`, `1 234,567` a comma; `3,421`,
 * `1.234` and `12` say nothing (a thousands separator or a decimal mark).
 */
export function decimalMarkOf(text: string, signs?: NumberSigns | 'any'): DecimalMark | undefined {
  const read = numberBody(text, signs);
  if (!read) return undefined;
  const spaced = GROUP_SPACE.test(read.body);
  const body = read.body.replace(GROUP_SPACES, '').replace(/[eE][-+]?\d+$/, '');
  const point = body.lastIndexOf('.');
  const comma = body.lastIndexOf(',');
  if (point >= 0 && comma >= 0) return point > comma ? '.' : ',';
  const [mark, at] = point >= 0 ? (['.', point] as const) : comma >= 0 ? ([',', comma] as const) : [undefined, -1];
  if (!mark) return undefined;
  const other: DecimalMark = mark === '.' ? ',' : '.';
  // One mark twice groups thousands; after space-grouped digits it is the decimal mark; with other than 3 digits after it, too.
  if (body.indexOf(mark) !== at) return other;
  if (spaced || body.length - at - 1 !== 3 || at === 0) return mark;
  return undefined;
}

/** Digits grouped by thousands (1,234,567) or as in India (12,34,567), with the group separator `group`. */
function groupedDigits(digits: string, group: string): string | undefined {
  if (!digits.includes(group)) return /^\d+$/.test(digits) ? digits : undefined;
  const parts = digits.split(group);
  const [head = '', ...rest] = parts;
  const thousands = /^\d{1,3}$/.test(head) && rest.every((p) => /^\d{3}$/.test(p));
  const indian =
    /^\d{1,2}$/.test(head) && rest.slice(0, -1).every((p) => /^\d{2}$/.test(p)) && /^\d{3}$/.test(rest.at(-1) ?? '');
  return thousands || indian ? parts.join('') : undefined;
}

/**
 * A number cell's text as a number, read with its column's decimal mark (a
 * point when the column has none); undefined when it is not one (digits
 * grouped wrongly for the mark, letters, a column whose numbers say both
 * marks and a mark that could be either). Spaces and apostrophes group
 * digits; `(1,200)` and `−1,200` are negative; `money` drops a currency
 * sign or code around the amount, `percent` a percent sign after it (12.5%
 * is 12.5).
 */
export function readNumber(text: string, format?: ColumnFormat | null, signs?: NumberSigns): number | undefined {
  const read = numberBody(text, signs);
  if (!read) return undefined;
  const told = decimalMarkOf(text, signs);
  if (format?.decimalMarkFrom === 'mixed' && /[.,]/.test(read.body) && told === undefined) return undefined;
  const mark: DecimalMark = told ?? format?.decimalMark ?? '.';
  if (format?.decimalMark && told && told !== format.decimalMark && format.decimalMarkFrom === 'values') {
    return undefined;
  }
  const group = mark === '.' ? ',' : '.';
  const body = read.body.replace(GROUP_SPACES, '');
  const exponent = /[eE][-+]?\d+$/.exec(body)?.[0] ?? '';
  const mantissa = body.slice(0, body.length - exponent.length);
  const at = mantissa.indexOf(mark);
  if (at >= 0 && mantissa.lastIndexOf(mark) !== at) return undefined;
  const whole = at >= 0 ? mantissa.slice(0, at) : mantissa;
  const fraction = at >= 0 ? mantissa.slice(at + 1) : '';
  if (fraction.includes(group) || !/^\d*$/.test(fraction)) return undefined;
  const digits = whole === '' ? '0' : groupedDigits(whole, group);
  if (digits === undefined || (at >= 0 && fraction === '' && whole === '')) return undefined;
  const number = Number(`${digits}${fraction ? `.${fraction}` : ''}${exponent}`);
  if (!Number.isFinite(number)) return undefined;
  return read.negative && number !== 0 ? -number : number;
}

/**
 * What the values of a column said, by kind (`FormatEvidence.counts`). No
 * schema here: the web app's list screens read this module, and zod is not in
 * their bundle (the server checks a kept scan with its own, import-formats.ts).
 */
export interface EvidenceCounts {
  dayFirst: number;
  monthFirst: number;
  eitherWay: number;
  point: number;
  comma: number;
  eitherMark: number;
}

/**
 * What the values of one column say of how it writes dates or numbers,
 * gathered a value at a time (a column is read as a stream), then decided.
 */
export class FormatEvidence {
  private dayFirst = 0;
  private monthFirst = 0;
  private eitherWay = 0;
  private point = 0;
  private comma = 0;
  /** Numbers with one mark that could be either (`3,421`, `1.234`). */
  private eitherMark = 0;

  /** `counts`: what `counts()` answered for the same column and reading (kept with an upload's scan). */
  constructor(
    readonly reads: CellReading,
    counts?: EvidenceCounts,
  ) {
    if (counts) {
      ({
        dayFirst: this.dayFirst,
        monthFirst: this.monthFirst,
        eitherWay: this.eitherWay,
        point: this.point,
        comma: this.comma,
        eitherMark: this.eitherMark,
      } = counts);
    }
  }

  /** What the values noted so far said, to decide later without reading them again. */
  counts(): EvidenceCounts {
    const { dayFirst, monthFirst, eitherWay, point, comma, eitherMark } = this;
    return { dayFirst, monthFirst, eitherWay, point, comma, eitherMark };
  }

  /** One cell of the column (numbers and empty cells say nothing). */
  note(cell: Cell | undefined): void {
    if (typeof cell !== 'string' || cell.trim() === '') return;
    if (this.reads === 'number') {
      // Whatever signs the field allows, the digits tell the mark.
      const mark = decimalMarkOf(cell, 'any');
      if (mark === '.') this.point += 1;
      else if (mark === ',') this.comma += 1;
      else if (/[.,]/.test(numberBody(cell, 'any')?.body ?? '')) this.eitherMark += 1;
      return;
    }
    const text = dateText(cell);
    const parts = text === undefined ? undefined : yearLastParts(text);
    if (!parts) return;
    const [first, second] = parts;
    if (first > 12 && second <= 12) this.dayFirst += 1;
    else if (second > 12 && first <= 12) this.monthFirst += 1;
    else if (first <= 12 && second <= 12) this.eitherWay += 1;
  }

  /**
   * The column's format: what its values say, else the chosen day/month
   * order and the chosen decimal mark where a value could be read either way.
   */
  decide(choice: DateOrder, markChoice: DecimalMark = '.'): ColumnFormat {
    if (this.reads === 'number') {
      const mixed = this.point > 0 && this.comma > 0;
      const told = this.comma > 0 ? ',' : this.point > 0 ? '.' : undefined;
      const from = mixed ? 'mixed' : told ? 'values' : this.eitherMark > 0 ? 'choice' : 'default';
      return {
        dateOrder: null,
        dateOrderFrom: null,
        decimalMark: mixed ? null : (told ?? (from === 'choice' ? markChoice : '.')),
        decimalMarkFrom: from,
      };
    }
    const number = { decimalMark: null, decimalMarkFrom: null };
    if (this.dayFirst > 0 && this.monthFirst > 0) return { dateOrder: null, dateOrderFrom: 'mixed', ...number };
    if (this.dayFirst > 0) return { dateOrder: 'dmy', dateOrderFrom: 'values', ...number };
    if (this.monthFirst > 0) return { dateOrder: 'mdy', dateOrderFrom: 'values', ...number };
    if (this.eitherWay > 0) return { dateOrder: choice, dateOrderFrom: 'choice', ...number };
    return { dateOrder: null, dateOrderFrom: null, ...number };
  }
}

/**
 * The day/month order a language writes dates in (`en` and `en-US` month
 * first, `fr` and `en-GB` day first), as the platform's Intl data has it;
 * month first when the language is not known.
 */
export function dateOrderOfLanguage(language: string | undefined): DateOrder {
  const locale = knownLocale(language);
  const parts = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'numeric', year: 'numeric' })
    .formatToParts(new Date(Date.UTC(2004, 11, 31, 12)))
    .map((part) => part.type);
  return parts.indexOf('day') < parts.indexOf('month') ? 'dmy' : 'mdy';
}

/** The decimal mark a language writes (`en` a point; `fr`, `de` a comma), as the platform's Intl data has it; a point when not known. */
export function decimalMarkOfLanguage(language: string | undefined): DecimalMark {
  const decimal = new Intl.NumberFormat(knownLocale(language))
    .formatToParts(1.5)
    .find((part) => part.type === 'decimal');
  return decimal?.value === ',' ? ',' : '.';
}

/** The language when the platform knows it, else `en-US`. */
function knownLocale(language: string | undefined): string {
  try {
    if (language && Intl.DateTimeFormat.supportedLocalesOf([language]).length > 0) return language;
  } catch {
    // A malformed tag is no language.
  }
  return 'en-US';
}
