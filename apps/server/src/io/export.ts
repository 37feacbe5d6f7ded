import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { allFields, type EntityDescription, referenceRelationName } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import type { ExportFormat } from '@data-platform/shared/export-formats';
import { type Cell, type FieldDescription, fieldTypeModule } from '@data-platform/shared/fields/field-types';
import type { JoinSpec, ListQuery } from '@data-platform/shared/query/list-query';
import { stringify } from 'csv-stringify';
import { stringify as stringifySync } from 'csv-stringify/sync';
import type { SQL } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { type ListScope, listSql } from '../crud/list-compiler.ts';
import type { Database } from '../db/client.ts';
import { csvSafe } from './csv-formulas.ts';
import {
  type CellSql,
  type CellTarget,
  exportCellsOfIdsSql,
  exportCellsSql,
  exportIdsSql,
  fieldCellsSql,
  inlineParams,
  referenceCellSql,
} from './export-sql.ts';
import { CopyRowsXml } from './xlsx-copy-rows.ts';
import { columnLetters, sheetName, writeXlsx, writeXlsxXml, xlsxCellText } from './xlsx-writer.ts';

export const exportContentTypes: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Rows read per statement: a keyset page, so that a million rows cost the same per page as the first. */
const EXPORT_PAGE = 1000;

/** Rows of text cells read per page (PGlite's CSV, XLSX): PGlite runs one statement at a time for everyone. */
const PAGE_ROWS = 2000;

/**
 * One column of an export: its heading, how a row's JSON gives its cell
 * (XLSX, typed), and the SQL text expression that gives the same cell as CSV
 * writes it (see export-sql.ts). `text` is built when the statement is: a
 * reference reads `limitedRows`, which limitJoins sets after the columns are made.
 */
export interface ExportColumn {
  heading: string;
  cell: (row: Record<string, unknown>) => Cell;
  text: (target: CellTarget) => CellSql;
  /** What an XLSX cell of the column holds, its text read as that. */
  kind: 'text' | 'number' | 'boolean';
}

/** The kind of cell a field type's value part gives: money's amount is a number, its currency text. */
function cellKind(json: string, part: number): ExportColumn['kind'] {
  if (json === 'number' || (json === 'object' && part === 0)) return 'number';
  return json === 'boolean' ? 'boolean' : 'text';
}

/** System fields a person exporting a list does not want unless they ask for them. */
const hiddenByDefault = new Set(['version', 'createdById', 'updatedById']);

/** The alias of the exported rows in the list statements (list-compiler's ROOT). */
const ROOT_ALIAS = 't';

/**
 * The columns of an export of these fields (all but system bookkeeping when
 * none are named): each field under its label, a reference by the name of
 * the record it points at, money as an amount and a currency column, lists
 * as `a; b`. Also the joins that name the references.
 */
export function exportColumns(
  entity: EntityDescription,
  select: readonly string[] | undefined,
): { columns: ExportColumn[]; join: JoinSpec[] } {
  const fields = allFields(entity);
  const names = select ? ['id', ...select.filter((name) => name !== 'id')] : Object.keys(fields);
  const columns: ExportColumn[] = [];
  const join: JoinSpec[] = [];
  for (const name of names) {
    if (!select && hiddenByDefault.has(name)) continue;
    const field = fields[name] as FieldDescription;
    // A reference is written as the display name of the record it points at.
    const target = field.to && name !== 'id' ? findEntity(field.to) : undefined;
    if (target) {
      const relation = referenceRelationName(name);
      const spec: JoinSpec = { relation, target: target.name, fields: [target.display] };
      join.push(spec);
      const module = fieldTypeModule(target.fields[target.display]?.type ?? 'text');
      const alias = `r${join.length}`;
      columns.push({
        heading: field.label,
        cell: (row) =>
          module.exportCells((row[relation] as Record<string, unknown> | null)?.[target.display])[0] ?? null,
        text: (cells) => referenceCellSql(entity, name, target, alias, spec.limitedRows === true, cells),
        kind: cellKind(module.json, 0),
      });
      continue;
    }
    // One column per part of the type's value (money: the amount, then "<label> currency").
    const module = fieldTypeModule(field.type);
    const headings = [field.label, ...(module.parts?.extra ?? []).map((part) => `${field.label} ${part}`)];
    headings.forEach((heading, i) => {
      columns.push({
        heading,
        cell: (row) => module.exportCells(row[name])[i] ?? null,
        text: (target) => ({ cell: fieldCellsSql(ROOT_ALIAS, name, field, target)[i] as SQL }),
        kind: cellKind(module.json, i),
      });
    });
  }
  return { columns, join };
}

/**
 * Every row of a list, in its order, a keyset page at a time: the export
 * reads each matching row exactly once, however many there are and whatever
 * is written meanwhile behind the cursor.
 */
async function* allRows(
  database: Database,
  entity: EntityDescription,
  query: ListQuery,
  scope: ListScope | undefined,
): AsyncGenerator<Record<string, unknown>> {
  const paged: ListQuery = { ...query, page: 1, pageSize: EXPORT_PAGE, cursor: undefined };
  let after: unknown[] | undefined;
  for (;;) {
    const rows = await database.rows<{ row: string; cursor: unknown[] | string }>(listSql(entity, paged, after, scope));
    for (const row of rows.slice(0, EXPORT_PAGE)) yield JSON.parse(row.row) as Record<string, unknown>;
    if (rows.length <= EXPORT_PAGE) return;
    const last = rows[EXPORT_PAGE - 1] as { cursor: unknown[] | string };
    after = typeof last.cursor === 'string' ? (JSON.parse(last.cursor) as unknown[]) : last.cursor;
  }
}

/**
 * How an export reads its rows: `sql` has the database write each cell's
 * text; `rows` reads the rows' JSON and formats it in Node (the writer this
 * replaced, kept as the reference the SQL cells are tested against).
 */
export type ExportEngine = 'sql' | 'rows';

/**
 * The list as a CSV or XLSX stream: a heading row, then a row per record.
 * `query` carries the joins the columns need (see `exportColumns`). Reading
 * follows the reader: nothing more is read while the stream is not read
 * (a slow download holds the database back, not memory), and destroying the
 * stream (the client went away) stops the statement that reads.
 *
 * CSV is written by the database: on PostgreSQL one `COPY (...) TO STDOUT`
 * whose bytes go out as they come; on PGlite, which runs one statement at a
 * time for every user, keyset pages of PAGE_ROWS rows, other users'
 * statements running between them. XLSX reads the same text cells (typed by
 * the column's kind) into our streaming writer (xlsx-writer.ts), a page of
 * rows at a time, waiting while the download is behind: on PostgreSQL
 * from the same COPY statement (in its text format), else the same keyset pages.
 */
export function exportStream(
  database: Database,
  entity: EntityDescription,
  query: ListQuery,
  scope: ListScope | undefined,
  format: ExportFormat,
  columns: readonly ExportColumn[],
  engine: ExportEngine = 'sql',
  /** `onRows(n)`: n more rows went to the XLSX writer (a job's progress; a CSV's rows are counted from its bytes). */
  options: { onRows?: (rows: number) => void } = {},
): Readable {
  // XLSX cells are typed (a string is never a formula); a CSV cell is whatever its text looks like.
  const written = format === 'csv' ? csvSafe : (cell: Cell) => cell;
  // A custom field's name heads a column: it is text someone typed too.
  const headings = columns.map((c) => written(c.heading) as string);
  const cellsSql = columns.map((c) => c.text(format));
  if (format === 'csv' && engine === 'sql') {
    // A byte order mark, so that spreadsheet programs read the file as UTF-8.
    const heading = `\ufeff${stringifySync([headings])}`;
    // COPY when the statement's parameters are all numbers, booleans or nulls (no text goes into SQL text);
    // a filter or search on text reads keyset pages with bound parameters, as on PGlite.
    const statement =
      database.kind === 'postgres' ? inlineParams(exportCellsSql(entity, query, scope, cellsSql)) : undefined;
    if (statement !== undefined) return copyCsv(database, statement, heading);
    const lines = async function* () {
      yield heading;
      for await (const page of textPages(database, entity, query, scope, cellsSql)) {
        let text = '';
        for (const row of page) text += `${row.map(csvField).join(',')}\n`;
        yield text;
      }
    };
    return Readable.from(lines(), { objectMode: false });
  }
  if (engine === 'sql') {
    // XLSX: the same text cells, typed by their column's kind, into our writer.
    const kinds = columns.map((c) => c.kind);
    const statement =
      database.kind === 'postgres' ? inlineParams(exportCellsSql(entity, query, scope, cellsSql)) : undefined;
    const out = new PassThrough();
    const sheet = { name: entity.labelPlural, headings };
    const failed = (error: unknown) => out.destroy(error as Error);
    if (statement !== undefined) {
      // COPY's bytes made into the sheet's XML as they come (xlsx-copy-rows.ts), when the statement can be a COPY.
      writeXlsxXml(out, sheet, copyXml(database, statement, kinds, options.onRows)).catch(failed);
      return out;
    }
    // Else keyset pages of text cells, typed in place (a page's rows are ours).
    const typed = (row: (string | null)[]): Cell[] => {
      const cells: Cell[] = row;
      for (let i = 0; i < row.length; i++) {
        const text = row[i];
        if (text === null || text === undefined) continue;
        if (kinds[i] === 'number') cells[i] = Number(text);
        else if (kinds[i] === 'boolean') cells[i] = text === 'true';
      }
      return cells;
    };
    const pages = async function* () {
      for await (const page of textPages(database, entity, query, scope, cellsSql)) {
        yield page.map(typed);
        options.onRows?.(page.length);
      }
    };
    writeXlsx(out, sheet, pages()).catch(failed);
    return out;
  }
  // The reference engine: the rows' JSON formatted in Node, written by csv-stringify or exceljs.
  const cells = async function* () {
    for await (const row of allRows(database, entity, query, scope)) yield columns.map((c) => written(c.cell(row)));
  };
  if (format === 'csv') {
    const csv = stringify({ header: true, columns: headings, bom: true, cast: { boolean: (b) => String(b) } });
    Readable.from(cells())
      .on('error', (error) => csv.destroy(error))
      .pipe(csv);
    return csv;
  }
  const out = new PassThrough();
  // exceljs's streaming writer (unbounded when the download is slow: a reference for tests, not for users),
  // its text cut and cleaned as ours is (see xlsx-writer.ts).
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  const sheet = workbook.addWorksheet(sheetName(entity.labelPlural));
  const write = async () => {
    const heading = sheet.addRow(headings);
    heading.font = { bold: true };
    heading.commit();
    for await (const values of cells()) {
      if (out.destroyed) return;
      sheet.addRow(values.map((cell) => (typeof cell === 'string' ? xlsxCellText(cell) : cell))).commit();
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => out.destroy(error as Error));
  return out;
}

/** A CSV field as PostgreSQL's `COPY ... (FORMAT csv)` and csv-stringify write it: null and empty as nothing. */
function csvField(value: string | null): string {
  if (value === null) return '';
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * The rows' text cells, a page at a time: keyset pages of ids in the list
 * order (the list's own statement, selecting the id alone), then the cells of
 * each page's rows. A generator: the next page is read only when wanted.
 */
async function* textPages(
  database: Database,
  entity: EntityDescription,
  query: ListQuery,
  scope: ListScope | undefined,
  cells: readonly CellSql[],
): AsyncGenerator<(string | null)[][]> {
  let after: unknown[] | undefined;
  for (;;) {
    const page = await database.rows<{ row: string; cursor: unknown[] | string }>(
      exportIdsSql(entity, query, scope, PAGE_ROWS, after),
    );
    const ids = page.slice(0, PAGE_ROWS).map((r) => (JSON.parse(r.row) as { id: number }).id);
    if (ids.length > 0) {
      const rows = await database.rows<Record<string, string | null>>(exportCellsOfIdsSql(entity, ids, cells));
      yield rows.map((row) => cells.map((_, i) => row[`c${i}`] ?? null));
    }
    if (page.length <= PAGE_ROWS) return;
    const last = page[PAGE_ROWS - 1] as { cursor: unknown[] | string };
    after = typeof last.cursor === 'string' ? (JSON.parse(last.cursor) as unknown[]) : last.cursor;
  }
}

/**
 * An export's `COPY` reads every row it matches, in the list's order. Its statement is costed for every
 * row, so JIT would compile its expressions for seconds (7.7 s of the 13.7 s a 100,000-row export of
 * companies took). And with cheap cells (XLSX's, or CSV's of numbers) PostgreSQL reads a whole table in
 * the order of a sort index, a random heap read a row: at 1,000,000 companies, 3.7 s against 1.3 s for a
 * scan and a sort (in parallel workers) of the same rows. A filter an index serves still uses it, as a
 * bitmap scan (see docs/decisions/0046).
 */
const COPY_SETTINGS = 'set jit = off; set enable_indexscan = off';
const COPY_SETTINGS_RESET = 'reset jit; reset enable_indexscan';

/**
 * The bytes of `COPY (statement) TO STDOUT` in its text format, on a pooled
 * connection. The copy stream is read only as the chunks are asked for (it
 * reads the socket no faster), so the download's speed is the statement's.
 * Leaving early (the download stopped) or failing cancels the statement and
 * closes the connection rather than giving it back mid-copy, as the CSV's
 * copy does.
 */
async function* copyChunks(database: Database, statement: string): AsyncGenerator<Buffer> {
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  const client = await pool.connect();
  let clean = false;
  try {
    await client.query(COPY_SETTINGS);
    yield* client.query(copyTo(`COPY (${statement}) TO STDOUT`)) as AsyncIterable<Buffer>;
    await client.query(COPY_SETTINGS_RESET);
    clean = true;
  } finally {
    if (!clean) {
      // Stopped before the end (or failed): stop the statement on the server.
      const pid = (client as unknown as { processID: number }).processID;
      await pool.query('select pg_cancel_backend($1)', [pid]).catch(() => {});
    }
    client.release(clean ? undefined : new Error('Export stopped before its end'));
  }
}

/** The sheet's rows of `COPY (statement) TO STDOUT`, as XML pages; `onRows(n)`: n more rows made. */
async function* copyXml(
  database: Database,
  statement: string,
  kinds: readonly ExportColumn['kind'][],
  onRows?: (rows: number) => void,
): AsyncGenerator<Buffer> {
  const rows = new CopyRowsXml(
    kinds,
    kinds.map((_, i) => columnLetters(i)),
  );
  let counted = 0;
  const page = () => {
    onRows?.(rows.rows - counted);
    counted = rows.rows;
    return rows.take();
  };
  for await (const chunk of copyChunks(database, statement)) {
    rows.push(chunk);
    if (rows.full) yield page();
  }
  rows.end();
  yield page();
}

/**
 * The PostgreSQL path: the heading, then `COPY (statement) TO STDOUT` on a
 * connection of the pool, its bytes piped on as they come (the copy stream
 * reads the socket only as fast as the download goes). When the stream is
 * destroyed before the end, the statement is cancelled and its connection
 * closed rather than given back mid-copy.
 */
function copyCsv(database: Database, statement: string, heading: string): Readable {
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  const out = new PassThrough();
  out.write(heading);
  const run = async () => {
    const client = await pool.connect();
    let clean = true;
    try {
      if (out.destroyed) return;
      clean = false;
      await client.query(COPY_SETTINGS);
      await pipeline(client.query(copyTo(`COPY (${statement}) TO STDOUT WITH (FORMAT csv)`)), out);
      await client.query(COPY_SETTINGS_RESET);
      clean = true;
    } catch (error) {
      if (!out.destroyed) out.destroy(error as Error);
      // The download stopped before the end (or the statement failed): stop the statement on the server.
      const pid = (client as unknown as { processID: number }).processID;
      await pool.query('select pg_cancel_backend($1)', [pid]).catch(() => {});
    } finally {
      // A connection left mid-copy is closed rather than given back to the pool.
      client.release(clean ? undefined : new Error('Export stopped before its end'));
    }
  };
  run().catch((error: unknown) => out.destroy(error as Error));
  return out;
}
