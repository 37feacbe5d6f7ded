import { z } from 'zod';

// A missing value reads "Required" everywhere (forms and API alike), not zod's type message.
z.config({
  customError: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? 'Required' : undefined),
});

/**
 * The field types an entity description can pick. Each type knows, once, how a
 * value is validated (`valueSchema`), which filter operators apply to it and how
 * a filter value written in a query string is read (`filterValueSchema`).
 * Columns and SQL live on the server (`apps/server/src/db/columns.ts`).
 */
export const fieldTypes = [
  'text',
  'longText',
  'email',
  'emails',
  'url',
  'phone',
  'integer',
  'decimal',
  'percent',
  'year',
  'money',
  'amount',
  'currency',
  'date',
  'datetime',
  'boolean',
  'select',
  'multiSelect',
  'tags',
  'reference',
] as const;
export type FieldType = (typeof fieldTypes)[number];

export const filterOps = [
  'eq',
  'ne',
  'lt',
  'lte',
  'gt',
  'gte',
  'in',
  'contains',
  'startsWith',
  'isNull',
  'notNull',
] as const;
export type FilterOp = (typeof filterOps)[number];

export interface FieldDescription {
  type: FieldType;
  /** English label; the translation key is `fields.<entity>.<field>`. */
  label: string;
  required?: boolean;
  unique?: boolean;
  sortable?: boolean;
  filterable?: boolean;
  searchable?: boolean;
  /** false when import must not write it (derived or system-owned). Default true. */
  importable?: boolean;
  /** Computed by the database (SQL over this row's columns); never written by clients. */
  generated?: string;
  /** Written by the server only (e.g. a file's size). */
  serverOwned?: boolean;
  /** Written on create, never changed after. */
  immutable?: boolean;
  /** select / multiSelect choices. */
  options?: readonly string[];
  /** How choices read in English where the stored value is not a word for people (`longText` → "Long text"). */
  optionLabels?: Readonly<Record<string, string>>;
  /** reference target resource. */
  to?: string;
  /** what happens to this row when the referenced row is deleted. */
  onDelete?: 'cascade' | 'setNull' | 'restrict';
  /** amount: the sibling currency field giving this amount's currency. */
  currencyField?: string;
  min?: number;
  max?: number;
  /** text: maximum length (default by type). */
  maxLength?: number;
  /** Help text shown under the field's label in forms. */
  help?: string;
  /** A custom field: its value lives in the row's `custom` column, under the field's name. */
  custom?: { groupId: number | null; position: number | null };
}

const numberOps: FilterOp[] = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'isNull', 'notNull'];
const textOps: FilterOp[] = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'contains', 'startsWith', 'isNull', 'notNull'];
const equalityOps: FilterOp[] = ['eq', 'ne', 'in', 'isNull', 'notNull'];
const arrayOps: FilterOp[] = ['contains', 'in', 'isNull', 'notNull'];

/** Operators each field type accepts in filters. */
export const opsByType: Record<FieldType, readonly FilterOp[]> = {
  text: textOps,
  longText: ['contains', 'startsWith', 'isNull', 'notNull'],
  email: textOps,
  emails: arrayOps,
  url: textOps,
  phone: textOps,
  integer: numberOps,
  decimal: numberOps,
  percent: numberOps,
  year: numberOps,
  money: numberOps,
  amount: numberOps,
  currency: equalityOps,
  date: numberOps,
  datetime: numberOps,
  boolean: ['eq', 'ne', 'isNull', 'notNull'],
  select: equalityOps,
  multiSelect: arrayOps,
  tags: arrayOps,
  reference: equalityOps,
};

/** Types whose values are arrays of strings. */
export const arrayTypes: ReadonlySet<FieldType> = new Set(['emails', 'multiSelect', 'tags']);
/** Types that hold text and can be searched with trigram indexes. */
export const textTypes: ReadonlySet<FieldType> = new Set(['text', 'longText', 'email', 'url', 'phone']);

const isoDate = z.iso.date({ error: 'Expected a date as YYYY-MM-DD' });
const isoDateTime = z.iso.datetime({ offset: true, error: 'Expected a date and time in ISO 8601' });
const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'Expected an ISO 4217 currency code such as USD');
const finite = z.number({ error: 'Expected a number' }).finite();

/** A money value: an amount and its ISO 4217 currency. */
export const moneySchema = z.strictObject({ amount: finite, currency: currencyCode });
export type Money = z.infer<typeof moneySchema>;

function bounded(schema: z.ZodNumber, field: FieldDescription): z.ZodNumber {
  let s = schema;
  if (field.min !== undefined) s = s.min(field.min);
  if (field.max !== undefined) s = s.max(field.max);
  return s;
}

/** PostgreSQL cannot store the NUL character in text. */
const withoutNul = /^[^\0]*$/;
const nulMessage = 'Cannot contain the NUL character';

function textSchema(field: FieldDescription, fallbackMax: number): z.ZodString {
  const max = field.maxLength ?? fallbackMax;
  const s = z.string().trim().max(max, `At most ${max} characters`).regex(withoutNul, nulMessage);
  return field.required ? s.min(1, 'Required') : s;
}

/** The schema of one non-null value of the field, as the API reads and writes it. */
export function valueSchema(field: FieldDescription): z.ZodType {
  switch (field.type) {
    case 'text':
      return textSchema(field, 500);
    case 'longText':
      return textSchema(field, 100_000);
    case 'phone':
      return textSchema(field, 40).regex(/^\+?[0-9 ()./-]{3,40}$/, 'Expected a phone number');
    case 'email':
      return z.email({ error: 'Expected an email address' }).max(320).toLowerCase();
    case 'emails':
      return z.array(z.email({ error: 'Expected an email address' }).max(320).toLowerCase()).max(50);
    case 'url':
      return z
        .url({ protocol: /^https?$/, error: 'Expected a web address starting with http:// or https://' })
        .max(2000);
    case 'integer':
      return bounded(z.number({ error: 'Expected a whole number' }).int(), field);
    case 'year':
      return z.number({ error: 'Expected a year' }).int().min(1800).max(2200);
    case 'decimal':
    case 'percent':
    case 'amount':
      return bounded(finite, field);
    case 'money':
      return moneySchema;
    case 'currency':
      return currencyCode;
    case 'date':
      return isoDate;
    case 'datetime':
      return isoDateTime;
    case 'boolean':
      return z.boolean({ error: 'Expected true or false' });
    case 'select':
      return z.enum(field.options as [string, ...string[]], { error: `Expected one of: ${field.options?.join(', ')}` });
    case 'multiSelect':
      return z.array(z.enum(field.options as [string, ...string[]])).max(100);
    case 'tags':
      return z.array(z.string().trim().min(1).max(100).regex(withoutNul, nulMessage)).max(100);
    case 'reference':
      return z.number({ error: 'Expected the id of a record' }).int().positive();
  }
}

/** A number written as text; blank text is refused rather than read as 0. */
function numberText(message: string, refine: (n: z.ZodNumber) => z.ZodNumber): z.ZodType {
  return z
    .string({ error: message })
    .trim()
    .min(1, message)
    .transform(Number)
    .pipe(refine(z.number({ error: message })));
}

/**
 * How one filter value written in a query string (always text) is read for a
 * field. Money and amount filter on the amount.
 */
export function filterValueSchema(field: FieldDescription): z.ZodType {
  switch (field.type) {
    case 'integer':
    case 'year':
    case 'reference':
      return numberText('Expected a whole number', (n) => n.int());
    case 'decimal':
    case 'percent':
    case 'amount':
    case 'money':
      return numberText('Expected a number', (n) => n.finite());
    case 'boolean':
      return z.enum(['true', 'false'], { error: 'Expected true or false' }).transform((v) => v === 'true');
    case 'date':
      return isoDate;
    case 'datetime':
      return z.union([isoDateTime, isoDate], { error: 'Expected a date or date and time in ISO 8601' });
    case 'select':
    case 'multiSelect':
      return z.enum(field.options as [string, ...string[]], { error: `Expected one of: ${field.options?.join(', ')}` });
    case 'currency':
      return currencyCode;
    default:
      return z.string().max(500);
  }
}
