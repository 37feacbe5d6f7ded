import { describe, expect, it, vi } from 'vitest';
import { localizeFieldMessage, ruleMessage } from './field-messages.ts';
import type { Cell, FormValue } from './field-type-module.ts';
import {
  arrayTypes,
  customFieldTypeLabels,
  customFieldTypes,
  type FieldDescription,
  type FieldType,
  fieldTypeModule,
  fieldTypes,
  numericTypes,
  opsByType,
  optionTypes,
  sortableTypes,
  sortKeyJson,
  textTypes,
} from './field-types.ts';
import { filterValueSchema, valueSchema } from './value-schemas.ts';

/** Examples written by hand, per type: what the API takes and refuses, and how filters, cells and forms read. */
interface Examples {
  field?: Partial<FieldDescription>;
  valid: unknown[];
  invalid: unknown[];
  /** A filter value as written in a query string, and what it reads as (undefined: refused). */
  filters: [string, unknown][];
  /** A spreadsheet cell and the value it imports as. */
  cells: [Cell, unknown][];
  /** An API value and the export's cells. */
  exports: [unknown, Cell[]][];
  /** An API value, the form's value, and what the form gives back to the API. */
  forms: [unknown, FormValue, unknown][];
}

const options = ['Seed', 'Series A'];

const examples: Record<FieldType, Examples> = {
  text: {
    valid: ['Acme', '  trimmed  '],
    invalid: [3, 'a\u0000b', 'x'.repeat(501)],
    filters: [['Acme', 'Acme']],
    cells: [
      [' Acme ', 'Acme'],
      [42, '42'],
    ],
    exports: [
      ['Acme', ['Acme']],
      [null, [null]],
    ],
    forms: [
      ['Acme', 'Acme', 'Acme'],
      [null, '', null],
      ['', '', null],
    ],
  },
  longText: {
    valid: ['Line one\nline two'],
    invalid: [false],
    filters: [['word', 'word']],
    cells: [['Some words', 'Some words']],
    exports: [['Some words', ['Some words']]],
    forms: [['Some words', 'Some words', 'Some words']],
  },
  email: {
    valid: ['ada@example.com'],
    invalid: ['not an email', 12],
    filters: [['ada@', 'ada@']],
    cells: [['ada@example.com', 'ada@example.com']],
    exports: [['ada@example.com', ['ada@example.com']]],
    forms: [['ada@example.com', 'ada@example.com', 'ada@example.com']],
  },
  emails: {
    valid: [['a@example.com', 'b@example.com'], []],
    invalid: ['a@example.com', ['nope']],
    filters: [['a@example.com', 'a@example.com']],
    cells: [['a@example.com; b@example.com', ['a@example.com', 'b@example.com']]],
    exports: [
      [['a@example.com', 'b@example.com'], ['a@example.com; b@example.com']],
      [[], [null]],
    ],
    forms: [
      [['a@example.com'], ['a@example.com'], ['a@example.com']],
      [null, [], null],
    ],
  },
  url: {
    valid: ['https://example.com/a'],
    invalid: ['ftp://example.com', 'javascript:alert(1)', 'https://example.com/a\u0000b'],
    filters: [['example', 'example']],
    cells: [['https://example.com', 'https://example.com']],
    exports: [['https://example.com', ['https://example.com']]],
    forms: [['https://example.com', 'https://example.com', 'https://example.com']],
  },
  phone: {
    valid: ['+33 1 23 45 67 89'],
    invalid: ['call me', '12'],
    filters: [['+33', '+33']],
    cells: [['+1 555 0100', '+1 555 0100']],
    exports: [['+1 555 0100', ['+1 555 0100']]],
    forms: [['+1 555 0100', '+1 555 0100', '+1 555 0100']],
  },
  integer: {
    field: { min: 0, max: 100 },
    valid: [0, 42, 100],
    invalid: [1.5, -1, 101, '3'],
    filters: [
      ['12', 12],
      ['1.5', undefined],
      ['', undefined],
      ['x', undefined],
    ],
    cells: [
      [7, 7],
      ['1,234', 1234],
      ['about 3', 'about 3'],
    ],
    exports: [
      [7, [7]],
      [null, [null]],
    ],
    forms: [
      [7, 7, 7],
      [null, '', null],
    ],
  },
  decimal: {
    valid: [1.25, -3],
    invalid: ['1.25', Number.POSITIVE_INFINITY],
    filters: [
      ['1.25', 1.25],
      ['abc', undefined],
    ],
    cells: [['1 234.5', 1234.5]],
    exports: [[1.25, [1.25]]],
    forms: [[1.25, 1.25, 1.25]],
  },
  multiple: {
    valid: [4.2, 0],
    invalid: ['4.2x', Number.NaN],
    filters: [
      ['4.2', 4.2],
      ['abc', undefined],
    ],
    cells: [['1.35', 1.35]],
    exports: [[4.2, [4.2]]],
    forms: [[4.2, 4.2, 4.2]],
  },
  percent: {
    valid: [12.5],
    invalid: ['12 %'],
    filters: [['12.5', 12.5]],
    cells: [['12.5', 12.5]],
    exports: [[12.5, [12.5]]],
    forms: [[12.5, 12.5, 12.5]],
  },
  year: {
    valid: [1800, 2024, 2200],
    invalid: [1799, 2201, 2024.5],
    filters: [
      ['2024', 2024],
      ['20.5', undefined],
    ],
    cells: [
      [2024, 2024],
      ['2024', 2024],
    ],
    exports: [[2024, [2024]]],
    forms: [[2024, 2024, 2024]],
  },
  money: {
    valid: [{ amount: 1000, currency: 'EUR' }],
    invalid: [{ amount: 1000 }, { amount: 1000, currency: 'eur' }, 1000],
    filters: [
      ['1000', 1000],
      ['lots', undefined],
    ],
    cells: [['1,000', 1000]],
    exports: [
      [{ amount: 1000, currency: 'EUR' }, [1000, 'EUR']],
      [null, [null, null]],
    ],
    forms: [
      [
        { amount: 1000, currency: 'EUR' },
        { amount: 1000, currency: 'EUR' },
        { amount: 1000, currency: 'EUR' },
      ],
      [null, { amount: '', currency: '' }, null],
    ],
  },
  amount: {
    valid: [250.5],
    invalid: ['250'],
    filters: [['250.5', 250.5]],
    cells: [['250.5', 250.5]],
    exports: [[250.5, [250.5]]],
    forms: [[250.5, 250.5, 250.5]],
  },
  currency: {
    valid: ['USD'],
    invalid: ['usd', 'DOLLARS'],
    filters: [
      ['EUR', 'EUR'],
      ['eur', undefined],
    ],
    cells: [['eur', 'EUR']],
    exports: [['EUR', ['EUR']]],
    forms: [
      ['EUR', 'EUR', 'EUR'],
      [null, '', null],
    ],
  },
  date: {
    valid: ['2024-02-29'],
    invalid: ['2023-02-29', '29/02/2024'],
    filters: [
      ['2024-01-31', '2024-01-31'],
      ['2024-01-31T10:00:00Z', undefined],
    ],
    cells: [['2024-01-31', '2024-01-31']],
    exports: [['2024-01-31', ['2024-01-31']]],
    forms: [
      ['2024-01-31', '2024-01-31', '2024-01-31'],
      [null, '', null],
    ],
  },
  datetime: {
    valid: ['2024-01-31T10:30:00Z', '2024-01-31T10:30:00+02:00'],
    invalid: ['2024-01-31', 'now'],
    filters: [
      ['2024-01-31', '2024-01-31'],
      ['2024-01-31T10:30:00Z', '2024-01-31T10:30:00Z'],
    ],
    cells: [['2024-01-31T10:30:00Z', '2024-01-31T10:30:00Z']],
    exports: [['2024-01-31T10:30:00Z', ['2024-01-31T10:30:00Z']]],
    forms: [[null, '', null]],
  },
  boolean: {
    valid: [true, false],
    invalid: ['yes', 1],
    filters: [
      ['true', true],
      ['false', false],
      ['yes', undefined],
    ],
    cells: [
      ['Yes', true],
      ['non', false],
      [true, true],
      ['maybe', 'maybe'],
    ],
    exports: [
      [true, [true]],
      [false, [false]],
    ],
    forms: [
      [true, true, true],
      [null, false, false],
    ],
  },
  select: {
    field: { options },
    valid: ['Seed'],
    invalid: ['seed', 'Series B'],
    filters: [
      ['Seed', 'Seed'],
      ['Other', undefined],
    ],
    cells: [['Series A', 'Series A']],
    exports: [['Seed', ['Seed']]],
    forms: [
      ['Seed', 'Seed', 'Seed'],
      [null, null, null],
    ],
  },
  multiSelect: {
    field: { options },
    valid: [['Seed', 'Series A'], []],
    invalid: [['Other'], 'Seed'],
    filters: [
      ['Seed', 'Seed'],
      ['Other', undefined],
    ],
    cells: [['Seed; Series A', ['Seed', 'Series A']]],
    exports: [[['Seed', 'Series A'], ['Seed; Series A']]],
    forms: [[['Seed'], ['Seed'], ['Seed']]],
  },
  tags: {
    valid: [['fintech', 'b2b']],
    invalid: [['']],
    filters: [['fintech', 'fintech']],
    cells: [['fintech ; b2b;', ['fintech', 'b2b']]],
    exports: [[['fintech', 'b2b'], ['fintech; b2b']]],
    forms: [
      [['fintech'], ['fintech'], ['fintech']],
      [[], [], null],
    ],
  },
  reference: {
    field: { to: 'firms' },
    valid: [1, 42],
    invalid: [0, -3, 1.5, '42'],
    filters: [
      ['42', 42],
      ['x', undefined],
    ],
    cells: [['Acme Ventures', 'Acme Ventures']],
    exports: [[42, [42]]],
    forms: [
      [42, '42', 42],
      [null, null, null],
    ],
  },
  rating: {
    valid: [1, 3, 5],
    invalid: [0, 6, 2.5, '4'],
    filters: [
      ['4', 4],
      ['4.5', undefined],
    ],
    cells: [
      ['★★★', 3],
      [4, 4],
      ['4', 4],
      ['great', 'great'],
    ],
    exports: [
      [4, [4]],
      [null, [null]],
    ],
    forms: [
      [4, 4, 4],
      [null, '', null],
    ],
  },
};

const describe_ = (type: FieldType): FieldDescription => ({ type, label: type, ...examples[type].field });

describe('the field type registry', () => {
  it('has a module for every field type, and examples for every one', () => {
    expect(Object.keys(examples).sort()).toEqual([...fieldTypes].sort());
    for (const type of fieldTypes) expect(fieldTypeModule(type).label).toMatch(/^[A-Z]/);
  });

  it('derives its sets from the modules', () => {
    expect([...arrayTypes].sort()).toEqual(['emails', 'multiSelect', 'tags']);
    expect([...textTypes].sort()).toEqual(['email', 'longText', 'phone', 'text', 'url']);
    expect([...optionTypes].sort()).toEqual(['multiSelect', 'select']);
    expect([...numericTypes].sort()).toEqual([
      'amount',
      'decimal',
      'integer',
      'money',
      'multiple',
      'percent',
      'rating',
      'reference',
      'year',
    ]);
    expect(fieldTypes.filter((type) => !sortableTypes.has(type)).sort()).toEqual([
      'emails',
      'longText',
      'multiSelect',
      'tags',
    ]);
  });

  it('offers the custom field types, with their English names', () => {
    expect(customFieldTypes).toEqual([
      'text',
      'longText',
      'email',
      'url',
      'phone',
      'integer',
      'decimal',
      'percent',
      'money',
      'date',
      'boolean',
      'select',
      'multiSelect',
      'tags',
      'rating',
    ]);
    expect(customFieldTypeLabels).toMatchObject({ integer: 'Whole number', boolean: 'Yes or no', rating: 'Rating' });
  });

  it('stores money with a currency column and currency codes as keys of the currencies', () => {
    expect(fieldTypes.filter((type) => fieldTypeModule(type).storage.currencyColumn)).toEqual(['money']);
    expect(fieldTypes.filter((type) => fieldTypeModule(type).storage.currencyCode)).toEqual(['currency']);
  });

  it('writes sort keys into cursors as the database does', () => {
    expect(sortKeyJson('money')).toBe('number');
    expect(sortKeyJson('reference')).toBe('number');
    expect(sortKeyJson('rating')).toBe('number');
    expect(sortKeyJson('boolean')).toBe('boolean');
    expect(sortKeyJson('date')).toBe('string');
    expect(sortKeyJson('currency')).toBe('string');
  });

  it('offers only filter choices the API accepts', () => {
    for (const type of fieldTypes) {
      const { filterChoices } = fieldTypeModule(type);
      const accepted = opsByType[type];
      for (const choice of filterChoices) {
        if (choice === 'between') expect(accepted).toEqual(expect.arrayContaining(['gte', 'lte']));
        else expect(accepted).toContain(choice);
      }
    }
  });
});

describe.each(fieldTypes)('the %s type', (type) => {
  const field = describe_(type);
  const module = fieldTypeModule(type);
  const example = examples[type];

  it('accepts its valid values and refuses the others', () => {
    for (const value of example.valid) expect(valueSchema(field).safeParse(value).success, String(value)).toBe(true);
    for (const value of example.invalid) {
      expect(valueSchema(field).safeParse(value).success, JSON.stringify(value)).toBe(false);
    }
  });

  it('reads filter values written as text', () => {
    for (const [text, expected] of example.filters) {
      const parsed = filterValueSchema(field).safeParse(text);
      expect(parsed.success ? parsed.data : undefined, text).toEqual(expected);
    }
  });

  it('imports spreadsheet cells', () => {
    for (const [cell, expected] of example.cells) expect(module.importCell(cell), String(cell)).toEqual(expected);
  });

  it('exports values as cells that import back', () => {
    for (const [value, cells] of example.exports) {
      expect(module.exportCells(value)).toEqual(cells);
      // A reference goes out and comes back as its record's name (export joins it, import looks it up).
      if (value === null || (Array.isArray(value) && value.length === 0) || module.parts || field.to) continue;
      const [cell] = cells;
      expect(module.importCell(cell as Cell)).toEqual(value);
    }
  });

  it('holds values in forms and gives them back to the API', () => {
    for (const [value, form, api] of example.forms) {
      expect(module.toForm(value)).toEqual(form);
      expect(module.toApi(form, null, field)).toEqual(api);
    }
  });
});

describe('refusals name what is wrong', () => {
  const message = (field: FieldDescription, value: unknown) =>
    valueSchema(field).safeParse(value).error?.issues[0]?.message;

  it('a number out of its bounds says the bound, not the type', () => {
    const employees: FieldDescription = { type: 'integer', label: 'Employees', min: 0, max: 1000 };
    const rule = 'Employees must be a whole number from 0 to 1,000';
    expect(message(employees, -1)).toBe(rule);
    expect(message(employees, 1001)).toBe(rule);
    expect(message(employees, 2.5)).toBe(rule);
    expect(message(employees, 'many')).toBe(rule);
    expect(message({ type: 'decimal', label: 'Share', min: 0 }, -0.5)).toBe('Share must be a number of 0 or more');
    expect(message({ type: 'year', label: 'Vintage' }, 1700)).toBe('Vintage must be a year from 1800 to 2200');
  });

  it('say what the field takes, from its description, in English and French', () => {
    const employees: FieldDescription = { type: 'integer', label: 'Employees', min: 0 };
    expect(message(employees, -5)).toBe('Employees must be a whole number of 0 or more');
    expect(ruleMessage(employees, 'fr', 'Employés')).toBe('Employés doit être un nombre entier supérieur ou égal à 0');
    expect(ruleMessage({ type: 'percent', label: 'Net IRR %', min: -100, max: 10_000 }, 'fr', 'TRI net %')).toBe(
      'TRI net % doit être un pourcentage entre -100 et 10\u202f000',
    );
    expect(ruleMessage({ type: 'text', label: 'Name' })).toBeUndefined();
    // The server's English message, shown in French under the form's input.
    expect(localizeFieldMessage(message(employees, -5), employees, 'fr-FR', 'Employés')).toBe(
      'Employés doit être un nombre entier supérieur ou égal à 0',
    );
    expect(localizeFieldMessage('Required', employees, 'fr', 'Employés')).toBe('Required');
  });

  it('a founded year cannot be in the future, read from the clock when checking', () => {
    const founded: FieldDescription = { type: 'year', label: 'Founded', notFuture: true };
    const schema = valueSchema(founded);
    const thisYear = new Date().getUTCFullYear();
    expect(schema.safeParse(thisYear).success).toBe(true);
    expect(schema.safeParse(thisYear + 1).error?.issues[0]?.message).toBe(
      `Founded must be a year from 1800 to ${thisYear}`,
    );
    vi.useFakeTimers({ now: new Date(`${thisYear + 2}-06-01T00:00:00Z`) });
    try {
      // The same schema, built before: next year is no longer in the future.
      expect(schema.safeParse(thisYear + 1).success).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a web address with the NUL character is refused as such (PostgreSQL cannot store it)', () => {
    expect(message({ type: 'url', label: 'Website' }, 'https://example.com/a\u0000b')).toBe(
      'Cannot contain the NUL character',
    );
  });
});

describe('money in a spreadsheet', () => {
  it('is two columns: the amount, then its currency in upper case', () => {
    const money = fieldTypeModule('money');
    expect(money.parts).toEqual({ main: 'amount', extra: ['currency'] });
    expect(money.importCell('1 500', 'amount')).toBe(1500);
    expect(money.importCell(' usd ', 'currency')).toBe('USD');
  });
});

describe('required form values', () => {
  it('leave an empty required value for the schema to call "Required"', () => {
    const required: FieldDescription = { type: 'integer', label: 'Employees', required: true };
    expect(fieldTypeModule('integer').toApi('', undefined, required)).toBeUndefined();
    expect(fieldTypeModule('tags').toApi([], undefined, { type: 'tags', label: 'Tags', required: true })).toEqual([]);
    expect(fieldTypeModule('text').toApi('  ', undefined, { type: 'text', label: 'Name', required: true })).toBe('  ');
  });
});
