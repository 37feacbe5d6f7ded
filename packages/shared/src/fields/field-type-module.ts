import type { z } from 'zod';
import type { CellReading, ColumnFormat } from './cell-formats.ts';
import type { FieldDescription } from './field-types.ts';
import type { SchemaKit } from './value-schemas.ts';

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

/** What a list's filter form offers: the list grammar's operators, plus "between" for ranges (gte and lte). */
export type FilterChoice = FilterOp | 'between';

/** The Postgres column types field values are stored in (and custom values are cast to). */
export type PgType =
  | 'text'
  | 'varchar3'
  | 'smallint'
  | 'integer'
  | 'bigint'
  | 'numeric'
  | 'date'
  | 'timestamptz'
  | 'boolean';

/** What a value is in the API's JSON. */
export type JsonKind = 'number' | 'string' | 'boolean' | 'array' | 'object';

/** One spreadsheet cell, as the import readers give it and the export writers take it. */
export type Cell = string | number | boolean | null;

/**
 * How a form holds a value: inputs speak text, so an empty value is `''` (or
 * `[]`, or null for pickers), numbers stay numbers, money is an amount and a
 * currency side by side, references are ids as text.
 */
export type FormValue = string | number | boolean | null | string[] | { amount: number | ''; currency: string };

/**
 * The web widgets that show and edit values, by name (the web app keeps one
 * implementation of each: apps/web/src/entity/field-widgets/).
 */
export type WidgetName =
  | 'text'
  | 'longText'
  | 'email'
  | 'url'
  | 'phone'
  | 'number'
  | 'amount'
  | 'money'
  | 'currency'
  | 'date'
  | 'datetime'
  | 'boolean'
  | 'select'
  | 'multiSelect'
  | 'list'
  | 'reference'
  | 'rating';

/** How the widget shows and takes values of this type. */
export interface WidgetSpec {
  name: WidgetName;
  /** Width of the type's column in list grids, in pixels. */
  width: number;
  /** number: whether it takes decimals (default true). */
  decimals?: boolean;
  /** number: digits grouped by thousands in inputs (default true). */
  grouping?: boolean;
  /** number: how a value reads, `1 234.5`, `12.5 %`, `4.20x`, or as it is (a year). Default 'number'. */
  display?: 'number' | 'percent' | 'multiple' | 'plain';
  /** number: the input's bounds when the type has its own (a year's); otherwise the field's min and max. */
  min?: number;
  max?: number;
  /** number: what follows the value in inputs (` %`). */
  suffix?: string;
}

/** How the type is stored in a built-in field's column(s). */
export interface StorageSpec {
  pgType: PgType;
  /** A Postgres array of `pgType` (NOT NULL, empty by default). */
  array?: boolean;
  /** A second column beside the value, `<column>_currency`, holding an ISO 4217 code (money). */
  currencyColumn?: boolean;
  /** The column holds an ISO 4217 code: a foreign key to the currencies the platform knows. */
  currencyCode?: boolean;
}

/**
 * A value of several spreadsheet columns (money: its amount and its
 * currency): the value is an object of these parts; the first column holds
 * `main`, each other `<label> <part>`.
 */
export interface SpreadsheetParts {
  main: string;
  extra: readonly string[];
}

/**
 * Everything about one field type that is not React: validation, filters,
 * storage, JSON, spreadsheets, forms, and which web widget it uses. Generic
 * code (server SQL, import, export, web) asks the module; nothing else
 * branches on the type.
 */
export interface FieldTypeModule {
  /** How the type reads in English where people pick it (the custom field form). */
  label: string;
  json: JsonKind;
  storage: StorageSpec;
  /** The cast a custom field's jsonb text is read with, to compare and sort like a column; none for text. */
  customCast?: PgType;
  /** Operators the API accepts in filters of this type. */
  ops: readonly FilterOp[];
  /** What the list's filter form offers, in order (only operators in `ops`, and "between" when gte and lte are). */
  filterChoices: readonly FilterChoice[];
  /** Whether lists can sort by it (lists and long text have no useful order). */
  sortable: boolean;
  /** Text searched with trigram indexes when the field is searchable. */
  text?: boolean;
  /** Values are picked from the field's `options`. */
  options?: boolean;
  /**
   * Values are free words, and those already stored in the field stand for
   * its options where values are mapped (an import maps a column's values
   * onto them); a value none matches is a new one, not a problem (tags).
   */
  storedOptions?: boolean;
  /**
   * A quantity a list's totals count, sum, average and bound (a year or a
   * code is a number that does not add up). Money, and an amount with a
   * `currencyField`, are totalled per currency, never across currencies.
   */
  aggregatable?: boolean;
  /** A custom field may have this type. */
  customizable: boolean;
  /**
   * The schema of one non-null value of the field, as the API reads and writes it; built with the
   * kit's zod (value-schemas.ts), so that this module imports no zod.
   */
  valueSchema(field: FieldDescription, kit: SchemaKit): z.ZodType;
  /** How one filter value written in a query string (always text) is read. */
  filterValueSchema(field: FieldDescription, kit: SchemaKit): z.ZodType;
  /** Several spreadsheet columns per value; one when absent. */
  parts?: SpreadsheetParts;
  /**
   * What an import reads from this type's cells in a way the column decides
   * (cell-formats.ts): dates (their day/month order) or numbers (their
   * decimal mark).
   */
  importReads?: CellReading;
  /**
   * A non-blank cell as the API's value (or of one part), read with its
   * column's `format` when the type has `importReads`; what cannot be read
   * is passed on as it is, for the schema to name, or is a `CellProblem`
   * saying why.
   */
  importCell(cell: Cell, part?: string, format?: ColumnFormat | null): unknown;
  /** A value as the export's cells: one, or one per part. */
  exportCells(value: unknown): Cell[];
  /** An API value as a form holds it. */
  toForm(value: unknown): FormValue;
  /** A form value as the API takes it; `empty` is what an empty value becomes (null, or undefined when required). */
  toApi(value: FormValue | undefined, empty: null | undefined, field: FieldDescription): unknown;
  /** A value typed as text (a bulk edit, the list grammar's way: numbers as digits, lists comma-separated). */
  fromText(text: string): unknown;
  widget: WidgetSpec;
}

/** A field type module, checked against the interface (a module is plain data plus functions). */
export function defineFieldType(module: FieldTypeModule): FieldTypeModule {
  return module;
}
