import { type ColumnFormat, type NumberSigns, readDate, readNumber } from './cell-formats.ts';
import type { Cell, FilterChoice, FilterOp, FormValue } from './field-type-module.ts';
import type { FieldDescription } from './field-types.ts';

/** Pieces several field type modules share: operator sets, cell and form conversions (their schemas: value-schemas.ts). */

export const numberOps: readonly FilterOp[] = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'isNull', 'notNull'];
export const textOps: readonly FilterOp[] = [
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
];
export const equalityOps: readonly FilterOp[] = ['eq', 'ne', 'in', 'isNull', 'notNull'];
export const arrayOps: readonly FilterOp[] = ['contains', 'in', 'isNull', 'notNull'];

export const rangeChoices: readonly FilterChoice[] = ['between', 'gte', 'lte', 'eq', 'isNull', 'notNull'];
export const textChoices: readonly FilterChoice[] = ['contains', 'startsWith', 'eq', 'isNull', 'notNull'];

/** A cell as text: what text types import. */
export const cellText = (cell: Cell): string => String(cell).trim();

/**
 * A cell as a number, read with its column's decimal mark (cell-formats.ts:
 * `3,421.567`, `3 421,567`, `(1,200)`; `signs` allows a currency or a
 * percent sign around it); passed on as text when it is not one. A cell
 * that holds a number (XLSX) is kept as it is.
 */
export function cellNumber(cell: Cell, _part?: string, format?: ColumnFormat | null, signs?: NumberSigns): unknown {
  if (typeof cell === 'number') return cell;
  const text = cellText(cell);
  return readNumber(text, format, signs) ?? text;
}

/**
 * A cell as a date, YYYY-MM-DD, read with its column's day/month order
 * (cell-formats.ts: `2004-12-31`, `Dec 31, 2004`, `31-Dec-04`, `12/31/2004`);
 * a problem naming the forms taken when it is none of them. XLSX date cells
 * arrive as YYYY-MM-DD already.
 */
export const cellDate = (cell: Cell, _part?: string, format?: ColumnFormat | null): unknown =>
  readDate(cellText(cell), format);

/** `a; b` in one cell. */
export const cellList = (cell: Cell): string[] =>
  cellText(cell)
    .split(';')
    .map((item) => item.trim())
    .filter(Boolean);

/** A value as one export cell: text, number and yes/no as they are, anything else as JSON. */
export function plainCell(value: unknown): Cell {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value;
  return JSON.stringify(value);
}

export const listCells = (value: unknown): Cell[] => [((value as string[] | null) ?? []).join('; ') || null];

const missing = (value: unknown) => value === null || value === undefined;

/** Text as a form holds it and the API takes it (blank optional text clears the field). */
export const textForm = {
  toForm: (value: unknown): FormValue => (missing(value) ? '' : String(value)),
  toApi: (value: FormValue | undefined, empty: null | undefined, field: FieldDescription): unknown => {
    if (typeof value !== 'string') return empty;
    return value.trim() === '' && !field.required ? null : value;
  },
  fromText: (text: string): unknown => text,
};

/** A number as a form holds it (`''` when empty) and the API takes it. */
export const numberForm = {
  toForm: (value: unknown): FormValue => (missing(value) ? '' : Number(value)),
  toApi: (value: FormValue | undefined, empty: null | undefined): unknown => {
    if (value === '' || value === null || value === undefined) return empty;
    return typeof value === 'number' ? value : Number(value);
  },
  fromText: (text: string): unknown => Number(text),
};

/** A list of text as a form holds it and the API takes it. */
export const listForm = {
  toForm: (value: unknown): FormValue => (Array.isArray(value) ? value.map(String) : []),
  toApi: (value: FormValue | undefined, _empty: null | undefined, field: FieldDescription): unknown =>
    Array.isArray(value) && value.length > 0 ? value : field.required ? [] : null,
  fromText: (text: string): unknown => text.split(',').filter(Boolean),
};

/** A picked value (a picklist's choice, a record's id) as a form holds it: null when none. */
export const pickedForm = {
  toForm: (value: unknown): FormValue => (missing(value) ? null : String(value)),
  toApi: (value: FormValue | undefined, empty: null | undefined): unknown =>
    value === null || value === '' || value === undefined ? empty : value,
  fromText: (text: string): unknown => text,
};
