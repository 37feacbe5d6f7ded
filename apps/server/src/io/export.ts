import { PassThrough, Readable } from 'node:stream';
import { allFields, type EntityDescription, referenceRelationName } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import { type Cell, type FieldDescription, fieldTypeModule } from '@data-platform/shared/fields/field-types';
import type { JoinSpec, ListQuery } from '@data-platform/shared/query/list-query';
import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';
import { type ListScope, listSql } from '../crud/list-compiler.ts';
import type { Database } from '../db/client.ts';

export const exportFormats = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof exportFormats)[number];

export const exportContentTypes: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Rows read per statement: a keyset page, so that a million rows cost the same per page as the first. */
const EXPORT_PAGE = 1000;

/** One column of an export: its heading and how a row gives its cell. */
export interface ExportColumn {
  heading: string;
  cell: (row: Record<string, unknown>) => Cell;
}

/** System fields a person exporting a list does not want unless they ask for them. */
const hiddenByDefault = new Set(['version', 'createdById', 'updatedById']);

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
      join.push({ relation, target: target.name, fields: [target.display] });
      const module = fieldTypeModule(target.fields[target.display]?.type ?? 'text');
      columns.push({
        heading: field.label,
        cell: (row) =>
          module.exportCells((row[relation] as Record<string, unknown> | null)?.[target.display])[0] ?? null,
      });
      continue;
    }
    // One column per part of the type's value (money: the amount, then "<label> currency").
    const module = fieldTypeModule(field.type);
    const headings = [field.label, ...(module.parts?.extra ?? []).map((part) => `${field.label} ${part}`)];
    headings.forEach((heading, i) => {
      columns.push({ heading, cell: (row) => module.exportCells(row[name])[i] ?? null });
    });
  }
  return { columns, join };
}

/**
 * A spreadsheet program opening a CSV runs a cell that starts with `=`, `+`,
 * `-` or `@` (also after spaces, and their full-width forms) as a formula,
 * and a leading tab or carriage return can hide one: `=HYPERLINK(...)` or
 * `+cmd|...` typed into a record would run on the computer of whoever opens
 * the export. OWASP's advice: such text starts with a `'`, which shows it as
 * text. Only text cells: a number is never a formula, and -5 stays -5.
 */
const formulaStart = /^(?:[\t\r]|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/;

export function csvSafe(cell: Cell): Cell {
  return typeof cell === 'string' && formulaStart.test(cell) ? `'${cell}` : cell;
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
 * The list as a CSV or XLSX stream: a heading row, then a row per record.
 * `query` carries the joins the columns need (see `exportColumns`).
 */
export function exportStream(
  database: Database,
  entity: EntityDescription,
  query: ListQuery,
  scope: ListScope | undefined,
  format: ExportFormat,
  columns: readonly ExportColumn[],
): Readable {
  // XLSX cells are typed (a string is never a formula); a CSV cell is whatever its text looks like.
  const written = format === 'csv' ? csvSafe : (cell: Cell) => cell;
  const cells = async function* () {
    for await (const row of allRows(database, entity, query, scope)) yield columns.map((c) => written(c.cell(row)));
  };
  // A custom field's name heads a column: it is text someone typed too.
  const headings = columns.map((c) => written(c.heading) as string);
  if (format === 'csv') {
    // A byte order mark, so that spreadsheet programs read the file as UTF-8.
    const csv = stringify({ header: true, columns: headings, bom: true, cast: { boolean: (b) => String(b) } });
    Readable.from(cells())
      .on('error', (error) => csv.destroy(error))
      .pipe(csv);
    return csv;
  }
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  const sheet = workbook.addWorksheet(entity.labelPlural);
  const write = async () => {
    const heading = sheet.addRow(headings);
    heading.font = { bold: true };
    heading.commit();
    for await (const values of cells()) sheet.addRow(values).commit();
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => out.destroy(error as Error));
  return out;
}
