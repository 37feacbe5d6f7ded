import { allFields, type EntityDescription, isWritable } from '@data-platform/shared/entities/entity';
import { createSchema } from '@data-platform/shared/entities/record-schema';
import { CellProblem, type ColumnFormat } from '@data-platform/shared/fields/cell-formats';
import { type FieldDescription, fieldTypeModule } from '@data-platform/shared/fields/field-types';
import { sql } from 'drizzle-orm';
import { assertReferencesReadable } from '../access/references.ts';
import type { Actor } from '../auth/actor.ts';
import { recordAudit } from '../auth/audit.ts';
import { createRecords } from '../crud/records.ts';
import { column, pgArrayLiteral } from '../crud/sql-fragments.ts';
import type { Database } from '../db/client.ts';
import { columnName } from '../db/columns.ts';
import { mapDatabaseError } from '../db/errors.ts';
import { conflict, type DomainError, invalid, tooLarge, unsupportedType } from '../domain/errors.ts';
import { readCsv } from './csv-reader.ts';
import { importedRecordsDetails } from './import-audit.ts';
import { ColumnFormatScan, type Readings } from './import-formats.ts';
import {
  type FoundRecord,
  findsReference,
  foundReference,
  NO_RECORD_TYPE,
  recordTypeOf,
  referencedRecords,
  referenceProblem,
  referenceTarget,
  withinFieldOf,
  withinLast,
} from './import-rows.ts';
import { type Cell, type TableRow, UnreadableTable, yieldToOthers } from './table.ts';
import { readXlsx } from './xlsx-reader.ts';

/** Rows one import may hold: all are checked, then written in one transaction. */
export const MAX_IMPORT_ROWS = 10_000;
/** Row errors an answer lists; the count says how many there were. */
const MAX_LISTED_ERRORS = 200;
/** Rows checked between two pauses that let other requests run. */
const ROWS_PER_STEP = 250;

/** Where a column's values go: a field, or one part of a field's value (a money's currency). */
interface Target {
  name: string;
  field: FieldDescription;
  /** The part of a value of several columns (see the type module's `parts`); none for one column. */
  part?: string;
}

/**
 * The rows of a CSV (UTF-8, with or without a byte order mark, or UTF-16
 * with one) or of an XLSX file's first sheet, read as a stream under the
 * limits of `tableLimits`.
 */
export function readTable(bytes: Buffer, fileName: string): AsyncGenerator<TableRow> {
  if (/\.xlsx$/i.test(fileName)) return readXlsx(bytes);
  if (/\.csv$/i.test(fileName)) return readCsv(bytes);
  throw unsupportedType('Import a .csv or .xlsx file', { file: 'Expected .csv or .xlsx' });
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
    const parts = fieldTypeModule(field.type).parts;
    for (const key of [field.label, name]) byHeading.set(key.toLowerCase(), { name, field, part: parts?.main });
    for (const part of parts?.extra ?? []) {
      byHeading.set(`${field.label} ${part}`.toLowerCase(), { name, field, part });
      byHeading.set(`${name}.${part}`.toLowerCase(), { name, field, part });
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

/**
 * A cell as the API's value of its field (or of one part), in its column's
 * format; what cannot be read is passed on for the schema to name, or is a
 * problem saying why.
 */
function cellValue(
  field: FieldDescription,
  cell: Cell,
  part: string | undefined,
  format: ColumnFormat | null,
): unknown {
  if (cell === null || (typeof cell === 'string' && cell.trim() === '')) return undefined;
  return fieldTypeModule(field.type).importCell(cell, part, format);
}

export interface ImportOutcome {
  created: number;
  /** Headings that name nothing the import can write. */
  ignoredColumns: string[];
}

/** Who imports, for the permission checks and the audit event; the day/month order and decimal mark their language writes. */
export interface Importer {
  actor: Actor;
  ip: string;
  /** For columns whose dates, or numbers, could all be read either way. */
  readings: Readings;
}

/** A file the readers refused: too large for a limit of size, invalid otherwise. */
function refusal(error: UnreadableTable): DomainError {
  if (error.tooLarge) return tooLarge(error.message, { file: error.message });
  return invalid({ file: error.message }, 'The file could not be read');
}

const isBlank = (cells: readonly Cell[]) => cells.every((cell) => cell === null || String(cell).trim() === '');

/**
 * 403 when a column sets a reference to records the importer may not read:
 * matching names against them would tell which exist. Checked on the
 * headings, before any name is looked up.
 */
function assertColumnsReadable(entity: EntityDescription, targets: readonly Target[], actor: Actor): void {
  assertReferencesReadable(
    actor,
    entity,
    targets.map((t) => t.name),
    {
      doing: 'importing',
      hint: '; remove the column or ask for the permission',
      field: (name, missing) =>
        `The column ${(allFields(entity)[name] as FieldDescription).label} needs ${missing.join(', ')}`,
    },
  );
}

/** The rows under the heading, each with only the cells of the columns that name a field. */
interface ReadRows {
  targets: Target[];
  ignored: string[];
  rows: TableRow[];
}

/**
 * Reads the table as it streams: the first row that is not blank names the
 * columns; blank rows are passed over; the 10,001st row is refused at once.
 */
async function readRows(entity: EntityDescription, table: AsyncIterable<TableRow>, actor: Actor): Promise<ReadRows> {
  let heading: { targets: Target[]; columns: number[]; ignored: string[] } | undefined;
  const rows: TableRow[] = [];
  try {
    for await (const row of table) {
      if (isBlank(row.cells)) continue;
      if (!heading) {
        const { targets, ignored } = targetsOf(entity, row.cells);
        const columns = targets.flatMap((target, i) => (target ? [i] : []));
        if (columns.length === 0) {
          throw invalid({ file: 'No column heading names a field of these records' }, 'Nothing to import');
        }
        heading = { targets: columns.map((i) => targets[i] as Target), columns, ignored };
        assertColumnsReadable(entity, heading.targets, actor);
        continue;
      }
      if (rows.length === MAX_IMPORT_ROWS) {
        throw tooLarge(`Import at most ${MAX_IMPORT_ROWS} rows at a time`, {
          file: `More than ${MAX_IMPORT_ROWS} rows; at most ${MAX_IMPORT_ROWS}`,
        });
      }
      const { columns } = heading;
      rows.push({ number: row.number, cells: columns.map((i) => row.cells[i] ?? null) });
    }
  } catch (error) {
    throw error instanceof UnreadableTable ? refusal(error) : error;
  }
  if (!heading || rows.length === 0) {
    throw invalid({ file: 'The file has no rows under its heading row' }, 'Nothing to import');
  }
  return { targets: heading.targets, ignored: heading.ignored, rows };
}

/**
 * The records the reference columns name, per referenced entity, by name,
 * domain, email, code or id as the import jobs find them (reads, outside any
 * transaction). A note's, file's or task's record is looked for in the
 * record type its row gives.
 */
async function referencedIds(
  database: Database,
  entity: EntityDescription,
  actor: Actor,
  targets: readonly Target[],
  rows: readonly TableRow[],
): Promise<Map<string, Map<string, FoundRecord | 'ambiguous'>>> {
  const typeColumn = targets.findIndex((target) => target.name === entity.attachedTo?.entityField);
  const names = new Map<string, Set<string>>();
  for (const { cells } of rows) {
    const type =
      typeColumn < 0
        ? undefined
        : cellValue(targets[typeColumn]?.field as FieldDescription, cells[typeColumn] ?? null, undefined, null);
    targets.forEach((target, i) => {
      const cell = cells[i];
      if (target.part || !findsReference(entity, target.name, target.field) || cell === null || cell === undefined)
        return;
      const to = referenceTarget(entity, { name: target.name, to: target.field.to }, type);
      const text = String(cell).trim();
      if (text && to) names.set(to, (names.get(to) ?? new Set()).add(text));
    });
  }
  const ids = new Map<string, Map<string, FoundRecord | 'ambiguous'>>();
  for (const [to, set] of names) {
    ids.set(to, await referencedRecords(database, actor, to, set, withinFieldOf(entity, targets, to)));
  }
  return ids;
}

/** What makes a row unique: each unique field, and each composite unique of the description. */
function uniqueKeys(entity: EntityDescription): string[][] {
  const single = Object.entries(allFields(entity)).flatMap(([name, field]) => (field.unique ? [[name]] : []));
  return [...single, ...(entity.uniques ?? [])];
}

const labelsOf = (entity: EntityDescription, names: readonly string[]) =>
  names.map((name) => allFields(entity)[name]?.label.toLowerCase() ?? name).join(' and ');

/**
 * Rows of the file that repeat a unique value of an earlier row, as
 * `<row>.<field>` errors naming the earlier row. Empty values repeat freely,
 * as the database's unique indexes let them.
 */
function repeatedUniques(
  entity: EntityDescription,
  bodies: readonly { row: number; values: Record<string, unknown> }[],
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const key of uniqueKeys(entity)) {
    const firstRow = new Map<string, number>();
    for (const { row, values } of bodies) {
      const parts = key.map((name) => values[name]);
      if (parts.some((part) => part === null || part === undefined)) continue;
      const value = JSON.stringify(parts);
      const first = firstRow.get(value);
      if (first === undefined) firstRow.set(value, row);
      else errors[`${row}.${key[0]}`] ??= `The same ${labelsOf(entity, key)} as row ${first}`;
    }
  }
  return errors;
}

/**
 * After the database refused the rows for a unique value already stored: the
 * rows whose value it is, as `<row>.<field>` errors (single unique fields;
 * read only on this path, so one scan of a failed import costs nothing else).
 */
async function rowsClashingWithStored(
  database: Database,
  entity: EntityDescription,
  bodies: readonly { row: number; values: Record<string, unknown> }[],
  field: string,
): Promise<Record<string, string>> {
  const values = [...new Set(bodies.flatMap(({ values: v }) => (v[field] == null ? [] : [String(v[field])])))];
  const stored = await database.rows<{ value: string }>(
    sql`select ${column('t', columnName(field))}::text as value from ${sql.identifier(entity.table)} t
      where ${column('t', columnName(field))}::text = any(${pgArrayLiteral(values)}::text[])`,
  );
  const taken = new Set(stored.map((r) => r.value));
  const errors: Record<string, string> = {};
  const message = `Another record already has this ${labelsOf(entity, [field])}`;
  for (const { row, values: v } of bodies) {
    if (Object.keys(errors).length === MAX_LISTED_ERRORS) break;
    if (v[field] != null && taken.has(String(v[field]))) errors[`${row}.${field}`] = message;
  }
  return errors;
}

/**
 * Creates a record per row, all or none. The file is read as a stream under
 * limits, every row is checked against the create schema (references by
 * name) outside any transaction, pausing now and then for other requests;
 * any error answers 400 naming each `<row>.<field>` with nothing written, as
 * does a row repeating a unique value of an earlier row. Then all rows are
 * written in one short transaction of multi-row inserts, with an audit event;
 * a unique value already stored answers 409 naming the rows that hold it.
 */
export async function importTable(
  database: Database,
  entity: EntityDescription,
  table: AsyncIterable<TableRow>,
  { actor, ip, readings }: Importer,
): Promise<ImportOutcome> {
  const { targets, ignored, rows } = await readRows(entity, table, actor);
  // Each column's dates and numbers are read one way, decided from all its values.
  const scan = new ColumnFormatScan(targets.map((target, index) => ({ index, target })));
  for (const row of rows) scan.note(row);
  const formats = scan.decide(readings);
  const ids = await referencedIds(database, entity, actor, targets, rows);
  const schema = createSchema(entity);
  const errors: Record<string, string> = {};
  let errorCount = 0;
  const bodies: { row: number; values: Record<string, unknown> }[] = [];
  for (const [index, { cells, number: rowNumber }] of rows.entries()) {
    if (index % ROWS_PER_STEP === ROWS_PER_STEP - 1) await yieldToOthers();
    const body: Record<string, unknown> = {};
    const rowErrors: Record<string, string> = {};
    targets.forEach((target, i) => {
      const cell = cells[i] ?? null;
      const value = cellValue(target.field, cell, target.part, formats.get(i) ?? null);
      if (value instanceof CellProblem) {
        rowErrors[target.name] = value.message;
        return;
      }
      if (value === undefined) return;
      // The parts of a value of several columns gather into one object (money: amount and currency).
      body[target.name] = target.part ? { ...(body[target.name] as object), [target.part]: value } : value;
    });
    // References once the row is read: a note's record is found in the record type the row gives, a state
    // within the country the row gives (so those last).
    for (const target of withinLast(targets)) {
      const text = body[target.name];
      if (target.part || !findsReference(entity, target.name, target.field) || text === undefined) continue;
      const to = referenceTarget(entity, { name: target.name, to: target.field.to }, recordTypeOf(entity, body));
      const parent = target.field.within ? body[target.field.within.field] : undefined;
      const found = to ? foundReference(ids.get(to), String(text), parent) : undefined;
      const problem = to ? referenceProblem(to, String(text), found) : NO_RECORD_TYPE;
      if (problem) {
        rowErrors[target.name] = problem;
        delete body[target.name];
      } else if (found !== undefined && found !== 'ambiguous') body[target.name] = found.id;
    }
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
    if (entries.length === 0 && parsed.success)
      bodies.push({ row: rowNumber, values: parsed.data as Record<string, unknown> });
  }
  const repeated = Object.entries(repeatedUniques(entity, bodies));
  errorCount += repeated.length;
  for (const [key, message] of repeated) {
    if (Object.keys(errors).length < MAX_LISTED_ERRORS) errors[key] = message;
  }
  if (errorCount > 0) {
    throw invalid(
      errors,
      `${errorCount} of ${rows.length} rows cannot be imported; nothing was imported. Each error names its row and field.`,
    );
  }
  try {
    await database.db.transaction(async (tx) => {
      await createRecords(
        database,
        entity,
        bodies.map((b) => b.values),
        actor,
        tx,
      );
      await recordAudit(
        database,
        {
          type: 'recordsImported',
          actorId: actor.userId,
          ip,
          details: importedRecordsDetails(entity.name, bodies.length),
        },
        tx,
      );
    });
  } catch (error) {
    throw await withClashingRows(database, entity, bodies, error);
  }
  return { created: bodies.length, ignoredColumns: ignored };
}

/** A unique value already stored, told by the rows of the file that hold it; any other error as it was. */
async function withClashingRows(
  database: Database,
  entity: EntityDescription,
  bodies: readonly { row: number; values: Record<string, unknown> }[],
  error: unknown,
): Promise<unknown> {
  const mapped = mapDatabaseError(error);
  const fields = Object.keys(mapped?.fields ?? {});
  const [field] = fields;
  if (mapped?.kind !== 'conflict' || fields.length !== 1 || !field || !allFields(entity)[field]?.unique) return error;
  const rows = await rowsClashingWithStored(database, entity, bodies, field);
  const count = Object.keys(rows).length;
  if (count === 0) return error;
  return conflict(
    `${count === 1 ? 'A row repeats' : `${count} rows repeat`} the ${labelsOf(entity, [field])} of a stored record; nothing was imported. Each error names its row.`,
    rows,
  );
}
