import { allFields, type EntityDescription, isWritable } from '@data-platform/shared/entities/entity';
import { createSchema } from '@data-platform/shared/entities/record-schema';
import { findEntity } from '@data-platform/shared/entities/registry';
import { arrayTypes, type FieldDescription } from '@data-platform/shared/fields/field-types';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Actor } from '../auth/actor.ts';
import { createRecord } from '../crud/records.ts';
import { pgArrayLiteral } from '../crud/sql-fragments.ts';
import type { Database } from '../db/client.ts';
import { columnName } from '../db/columns.ts';
import { AppError, invalid } from '../http/errors.ts';

/** Rows one import may hold: all are checked, then written in one transaction. */
export const MAX_IMPORT_ROWS = 10_000;
/** Row errors an answer lists; the count says how many there were. */
const MAX_LISTED_ERRORS = 200;

type Cell = string | number | boolean | null;

/** Where a column's values go: a field, or the currency of a money field. */
interface Target {
  name: string;
  field: FieldDescription;
  part: 'value' | 'currency';
}

/** The rows of a CSV (UTF-8, with or without a byte order mark) or of an XLSX file's first sheet. */
export async function readTable(bytes: Buffer, fileName: string): Promise<Cell[][]> {
  if (/\.xlsx$/i.test(fileName)) {
    const workbook = new ExcelJS.Workbook();
    try {
      await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    } catch {
      throw invalid({ file: 'This is not an Excel workbook (XLSX)' }, 'The file could not be read');
    }
    const sheet = workbook.worksheets[0];
    const rows: Cell[][] = [];
    sheet?.eachRow({ includeEmpty: true }, (row) => {
      const values = (row.values as unknown[]).slice(1);
      rows.push(values.map(cellOf));
    });
    return rows;
  }
  if (/\.csv$/i.test(fileName)) {
    try {
      return parse(bytes, { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][];
    } catch (error) {
      throw invalid({ file: `This CSV cannot be read: ${(error as Error).message}` }, 'The file could not be read');
    }
  }
  throw new AppError(415, 'unsupported_media_type', 'Import a .csv or .xlsx file', { file: 'Expected .csv or .xlsx' });
}

/** An XLSX cell as text or a number: dates as YYYY-MM-DD, formulas by their result, rich text as its text. */
function cellOf(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    const v = value as { result?: unknown; richText?: { text: string }[]; text?: string; hyperlink?: string };
    if ('result' in v) return cellOf(v.result);
    if (v.richText) return v.richText.map((part) => part.text).join('');
    if (typeof v.text === 'string') return v.text;
    return null;
  }
  return value as Cell;
}

/**
 * Columns to fields by heading: a field's label (as an export writes it) or
 * its name, in any case; "<money label> currency" to the money's currency.
 * Headings of nothing writable (ID, Created, unknown ones) are set aside.
 */
function targetsOf(
  entity: EntityDescription,
  headings: Cell[],
): { targets: (Target | undefined)[]; ignored: string[] } {
  const byHeading = new Map<string, Target>();
  for (const [name, field] of Object.entries(allFields(entity))) {
    if (!isWritable(field)) continue;
    for (const key of [field.label, name]) byHeading.set(key.toLowerCase(), { name, field, part: 'value' });
    if (field.type === 'money') {
      byHeading.set(`${field.label} currency`.toLowerCase(), { name, field, part: 'currency' });
      byHeading.set(`${name}.currency`.toLowerCase(), { name, field, part: 'currency' });
    }
  }
  const ignored: string[] = [];
  const targets = headings.map((heading) => {
    const text = String(heading ?? '').trim();
    const target = byHeading.get(text.toLowerCase());
    if (!target && text) ignored.push(text);
    return target;
  });
  return { targets, ignored };
}

const truthy = new Set(['true', 'yes', 'y', '1', 'oui']);
const falsy = new Set(['false', 'no', 'n', '0', 'non']);
const numberTypes = new Set(['integer', 'year', 'decimal', 'percent', 'amount']);

/** A cell as the API's value of its field; what cannot be read is passed on for the schema to name. */
function cellValue(field: FieldDescription, cell: Cell): unknown {
  if (cell === null || (typeof cell === 'string' && cell.trim() === '')) return undefined;
  const text = String(cell).trim();
  if (arrayTypes.has(field.type)) {
    return text
      .split(';')
      .map((item) => item.trim())
      .filter(Boolean);
  }
  if (numberTypes.has(field.type) || field.type === 'money') {
    const number = typeof cell === 'number' ? cell : Number(text.replace(/[\s,]/g, ''));
    return Number.isFinite(number) ? number : text;
  }
  if (field.type === 'boolean') {
    if (truthy.has(text.toLowerCase())) return true;
    if (falsy.has(text.toLowerCase())) return false;
    return text;
  }
  if (field.type === 'currency') return text.toUpperCase();
  return text;
}

/**
 * Ids of referenced records by their display names (any case), one query per
 * referenced entity; a name two records share is ambiguous.
 */
async function referenceIds(
  database: Database,
  to: string,
  names: Set<string>,
): Promise<Map<string, number | 'ambiguous'>> {
  const target = findEntity(to);
  const found = new Map<string, number | 'ambiguous'>();
  if (!target || names.size === 0) return found;
  const lowered = [...names].map((name) => name.toLowerCase());
  const display = sql.identifier(columnName(target.display));
  const rows = await database.rows<{ id: number; name: string }>(
    sql`select id::int as id, lower(${display}::text) as name from ${sql.identifier(target.table)}
      where lower(${display}::text) = any(${pgArrayLiteral(lowered)}::text[])`,
  );
  for (const row of rows) found.set(row.name, found.has(row.name) ? 'ambiguous' : row.id);
  return found;
}

export interface ImportOutcome {
  created: number;
  /** Headings that name nothing the import can write. */
  ignoredColumns: string[];
}

/**
 * Creates a record per row, all or none: every row is read and checked
 * against the create schema first (references by name), and any error
 * answers 400 naming each `<row>.<field>` with nothing written; then all rows
 * are written in one transaction.
 */
export async function importRows(
  database: Database,
  entity: EntityDescription,
  table: Cell[][],
  actor: Actor,
): Promise<ImportOutcome> {
  const [headings = [], ...rows] = table;
  // Each row with its number as a spreadsheet shows it (the heading is row 1); blank rows are passed over.
  const data = rows
    .map((cells, index) => ({ cells, number: index + 2 }))
    .filter(({ cells }) => cells.some((cell) => cell !== null && String(cell).trim() !== ''));
  if (data.length === 0) throw invalid({ file: 'The file has no rows under its heading row' }, 'Nothing to import');
  if (data.length > MAX_IMPORT_ROWS) {
    throw new AppError(413, 'too_large', `Import at most ${MAX_IMPORT_ROWS} rows at a time`, {
      file: `${data.length} rows; at most ${MAX_IMPORT_ROWS}`,
    });
  }
  const { targets, ignored } = targetsOf(entity, headings);
  if (!targets.some(Boolean)) {
    throw invalid({ file: 'No column heading names a field of these records' }, 'Nothing to import');
  }

  // References by name: collect every name first, then one query per referenced entity.
  const names = new Map<string, Set<string>>();
  for (const { cells } of data) {
    targets.forEach((target, i) => {
      const cell = cells[i];
      if (target?.field.type !== 'reference' || !target.field.to || cell === null || cell === undefined) return;
      const text = String(cell).trim();
      if (text) names.set(target.field.to, (names.get(target.field.to) ?? new Set()).add(text));
    });
  }
  const ids = new Map<string, Map<string, number | 'ambiguous'>>();
  for (const [to, set] of names) ids.set(to, await referenceIds(database, to, set));

  const schema = createSchema(entity);
  const errors: Record<string, string> = {};
  let errorCount = 0;
  const bodies: Record<string, unknown>[] = [];
  for (const { cells, number: rowNumber } of data) {
    const body: Record<string, unknown> = {};
    const rowErrors: Record<string, string> = {};
    targets.forEach((target, i) => {
      if (!target) return;
      const cell = cells[i] ?? null;
      if (target.part === 'currency') {
        const currency = cellValue({ type: 'currency', label: '' }, cell);
        if (currency !== undefined) body[target.name] = { ...(body[target.name] as object), currency };
        return;
      }
      let value = cellValue(target.field, cell);
      if (value !== undefined && target.field.type === 'reference' && target.field.to) {
        const label = findEntity(target.field.to)?.label.toLowerCase() ?? target.field.to;
        const id = ids.get(target.field.to)?.get(String(value).toLowerCase());
        if (id === undefined) rowErrors[target.name] = `No ${label} named ${value}`;
        else if (id === 'ambiguous') rowErrors[target.name] = `More than one ${label} is named ${value}`;
        value = typeof id === 'number' ? id : undefined;
      }
      if (value === undefined) return;
      body[target.name] = target.field.type === 'money' ? { ...(body[target.name] as object), amount: value } : value;
    });
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? 'row');
        rowErrors[field] ??= issue.code === 'unrecognized_keys' ? 'Unknown field' : issue.message;
      }
    }
    const entries = Object.entries(rowErrors);
    errorCount += entries.length > 0 ? 1 : 0;
    for (const [field, message] of entries) {
      if (Object.keys(errors).length < MAX_LISTED_ERRORS) errors[`${rowNumber}.${field}`] = message;
    }
    if (entries.length === 0 && parsed.success) bodies.push(parsed.data as Record<string, unknown>);
  }
  if (errorCount > 0) {
    throw invalid(
      errors,
      `${errorCount} of ${data.length} rows cannot be imported; nothing was imported. Each error names its row and field.`,
    );
  }
  await database.db.transaction(async (tx) => {
    for (const body of bodies) await createRecord(database, entity, body, actor, {}, tx);
  });
  return { created: bodies.length, ignoredColumns: ignored };
}
