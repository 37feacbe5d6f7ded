import type { FieldTypeModule, FilterOp, PgType } from './field-type-module.ts';
import { amount } from './types/amount.ts';
import { boolean } from './types/boolean.ts';
import { currency } from './types/currency.ts';
import { date } from './types/date.ts';
import { datetime } from './types/datetime.ts';
import { decimal } from './types/decimal.ts';
import { email } from './types/email.ts';
import { emails } from './types/emails.ts';
import { integer } from './types/integer.ts';
import { longText } from './types/long-text.ts';
import { money } from './types/money.ts';
import { multiSelect } from './types/multi-select.ts';
import { multiple } from './types/multiple.ts';
import { percent } from './types/percent.ts';
import { phone } from './types/phone.ts';
import { rating } from './types/rating.ts';
import { reference } from './types/reference.ts';
import { select } from './types/select.ts';
import { tags } from './types/tags.ts';
import { text } from './types/text.ts';
import { url } from './types/url.ts';
import { year } from './types/year.ts';

export {
  type Cell,
  type FieldTypeModule,
  type FilterChoice,
  type FilterOp,
  type FormValue,
  filterOps,
  type JsonKind,
  type PgType,
  type WidgetName,
  type WidgetSpec,
} from './field-type-module.ts';
export type { Money } from './types/money.ts';

/**
 * The field types an entity description can pick, each one module under
 * `./types/` holding everything about it (docs/decisions/0013). A new type
 * is its module plus its line here.
 */
const modules = {
  text,
  longText,
  email,
  emails,
  url,
  phone,
  integer,
  decimal,
  percent,
  multiple,
  year,
  money,
  amount,
  currency,
  date,
  datetime,
  boolean,
  select,
  multiSelect,
  tags,
  reference,
  rating,
} satisfies Record<string, FieldTypeModule>;

export type FieldType = keyof typeof modules;
export const fieldTypes = Object.keys(modules) as FieldType[];

/** The module of a field type: what generic code asks instead of switching on the type. */
export function fieldTypeModule(type: FieldType): FieldTypeModule {
  return modules[type];
}

const typesWhere = (test: (module: FieldTypeModule) => boolean): ReadonlySet<FieldType> =>
  new Set(fieldTypes.filter((type) => test(modules[type])));

const numericPgTypes: ReadonlySet<PgType> = new Set(['smallint', 'integer', 'bigint', 'numeric']);

/** Types whose values are arrays of strings. */
export const arrayTypes = typesWhere((m) => m.storage.array === true);
/** Types that hold text and can be searched with trigram indexes. */
export const textTypes = typesWhere((m) => m.text === true);
/** Types stored as numbers (money by its amount): they sort and compare as numbers. */
export const numericTypes = typesWhere((m) => numericPgTypes.has(m.storage.pgType) && m.storage.array !== true);
/** Types lists can sort by. */
export const sortableTypes = typesWhere((m) => m.sortable);
/** Types whose values are picked from the field's options. */
export const optionTypes = typesWhere((m) => m.options === true);
/** Types a list's totals sum, average and bound (see FieldTypeModule.aggregatable). */
export const aggregatableTypes = typesWhere((m) => m.aggregatable === true);

/** The field types a custom field can have (references and system types stay with built-in fields). */
export const customFieldTypes = fieldTypes.filter((type) => modules[type].customizable);
/** How each custom field type reads in English, where an administrator picks one. */
export const customFieldTypeLabels: Readonly<Record<string, string>> = Object.fromEntries(
  customFieldTypes.map((type) => [type, modules[type].label]),
);

/** Operators each field type accepts in filters. */
export const opsByType = Object.fromEntries(fieldTypes.map((type) => [type, modules[type].ops])) as Record<
  FieldType,
  readonly FilterOp[]
>;

/**
 * The JSON type of a sort key's value as the database writes it into a
 * cursor: numbers for numeric columns (money: its amount), true/false for
 * yes/no, text for the rest.
 */
export function sortKeyJson(type: FieldType): 'number' | 'boolean' | 'string' {
  const { pgType } = modules[type].storage;
  if (numericPgTypes.has(pgType)) return 'number';
  return pgType === 'boolean' ? 'boolean' : 'string';
}

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
  /** number: what the number counts, when the value reads with its unit (a file's size: "3 MB"). */
  unit?: 'byte';
  /** year: cannot be after this year (checked against the clock when a value is validated). */
  notFuture?: boolean;
  /**
   * money: a new value's currency is the one of the money field `money` of the
   * `to` record the sibling field `field` picks (a commitment's, its deal's
   * amount's), while the user has not picked one.
   */
  currencyFrom?: { field: string; to: string; money: string };
  /** text: maximum length (default by type). */
  maxLength?: number;
  /** Help text shown under the field's label in forms. */
  help?: string;
  /**
   * reference: the choices are the `relation` records of the record picked in
   * the sibling field `field` (a state within the country picked before it);
   * nothing can be picked until that one is.
   */
  within?: { field: string; relation: string };
  /**
   * reference to countries: phone numbers of the same record start with the
   * picked country's calling code unless the user types another.
   */
  givesPhoneCode?: boolean;
  /** A custom field: its value lives in the row's `custom` column, under the field's name. */
  custom?: { groupId: number | null; position: number | null };
}

/**
 * True when a list can be sorted by the field: the fields marked sortable,
 * and every reference field, which sorts by the label of the record it
 * points to (its display field: a country's name, an owner's name).
 */
export function isSortable(field: FieldDescription): boolean {
  return Boolean(field.sortable) || field.type === 'reference';
}
