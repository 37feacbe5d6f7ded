import { readableDescription } from '@data-platform/shared/entities/access';
import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import { fieldTypeModule } from '@data-platform/shared/fields/field-types';
import {
  type ColumnTarget,
  type ImportPreview,
  type ImportSettings,
  MAX_DISTINCT_VALUES,
  MAX_STORED_OPTIONS,
} from '@data-platform/shared/imports';
import { sql } from 'drizzle-orm';
import { readableScope } from '../access/reading.ts';
import type { Actor } from '../auth/actor.ts';
import { valueExpr } from '../crud/sql-fragments.ts';
import type { Database } from '../db/client.ts';
import {
  type FileScan,
  formatsOver,
  needsDateOrder,
  needsDecimalMark,
  type Readings,
  type ScanKey,
  scanFits,
} from './import-formats.ts';
import {
  type ImportTarget,
  importableFields,
  normalized,
  suggestMapping,
  suggestOption,
  tagSuggester,
} from './import-mapping.ts';
import { KeysSeen, planRows, prepareRows } from './import-rows.ts';
import { headingText, rowsUnderHeading, type SourceFile, sourceRows } from './import-source.ts';
import type { TableRow } from './table.ts';

/** Rows of the file shown as they would be stored. */
export const PREVIEW_ROWS = 20;
/** Rows read for the distinct values of picklist columns (the whole file when it is shorter). */
export const PREVIEW_SCAN_ROWS = 20_000;

/** An upload as the preview reads it. */
export interface PreviewedUpload {
  id: number;
  fileName: string;
  path: string;
  source: SourceFile;
  /** What an earlier preview that read the whole file found (`keepScan`), null when none did. */
  scan: FileScan | null;
}

/**
 * Keeps with the upload what a preview that read every row found of its
 * columns' dates and numbers (`FileScan`), with what an earlier preview with
 * the same sheet and heading row found of other columns: a job started with
 * them decides its formats from it (`formatsFromScan`) rather than reading
 * the file a first time. Only while nothing was started from the upload.
 */
async function keepScan(
  database: Database,
  upload: PreviewedUpload,
  key: ScanKey,
  rows: number,
  found: FileScan['columns'],
): Promise<void> {
  const earlier = upload.scan && scanFits(upload.scan, key) ? upload.scan.columns : {};
  const columns: FileScan['columns'] = { ...earlier };
  for (const [index, kinds] of Object.entries(found)) columns[index] = { ...earlier[index], ...kinds };
  const scan: FileScan = { sheet: key.sheet ?? null, headerRow: key.headerRow ?? null, rows, columns };
  await database.rows(
    sql`update imports set scan = ${JSON.stringify(scan)}::jsonb where id = ${upload.id} and status = 'uploaded'`,
  );
  upload.scan = scan;
}

/**
 * The mapping the user confirmed at their last import of the entity, by
 * normalized heading: a column they skipped is remembered as skipped. Only
 * where each went: how its values were read was that file's.
 */
export async function rememberedMapping(
  database: Database,
  userId: number | null,
  entity: string,
): Promise<Map<string, ColumnTarget | null>> {
  const remembered = new Map<string, ColumnTarget | null>();
  if (userId === null) return remembered;
  const [last] = await database.rows<{ headings: string[]; settings: { mapping: (ColumnTarget | null)[] } }>(
    sql`select headings, settings from imports
      where user_id = ${userId} and entity = ${entity} and settings is not null and headings is not null
      order by id desc limit 1`,
  );
  last?.headings.forEach((heading, i) => {
    const key = normalized(heading);
    const target = last.settings.mapping[i];
    if (key && !remembered.has(key)) {
      remembered.set(key, target ? { field: target.field, ...(target.part ? { part: target.part } : {}) } : null);
    }
  });
  return remembered;
}

/**
 * The values stored in a field whose stored values stand for its options
 * (tags), in the newest STORED_OPTIONS_RECORDS records the importer may read:
 * the most used first, at most MAX_STORED_OPTIONS, in one statement (a
 * custom field's from its jsonb value, as lists read it). None when the
 * importer may not read the field.
 */
/**
 * Records whose stored tags a preview reads, the newest first: all of them took 1.1 s a preview at 1,000,000
 * companies, the newest 100,000 0.13 s; a tag used only in older records is then not offered.
 */
const STORED_OPTIONS_RECORDS = 100_000;

async function storedOptions(
  database: Database,
  entity: EntityDescription,
  actor: Actor,
  target: ImportTarget,
): Promise<string[]> {
  if (!allFields(readableDescription(entity, actor.permissions))[target.name]) return [];
  const scope = readableScope(entity, actor);
  const rows = await database.rows<{ tag: string }>(
    sql`select u.tag from (
        select ${valueExpr('t', target.name, target.field)} as tags from ${sql.identifier(entity.table)} t
        ${scope ? sql`where ${scope.where}` : sql``}
        order by t.id desc limit ${STORED_OPTIONS_RECORDS}
      ) s cross join lateral unnest(s.tags) as u(tag)
      group by u.tag order by count(*) desc, u.tag limit ${MAX_STORED_OPTIONS}`,
  );
  return rows.map((row) => row.tag);
}

/**
 * What the file would import, nothing written: its sheets and dialect, the
 * headings and the mapping (the caller's, or suggested), how each column of
 * dates or numbers is written (decided over the rows scanned: the whole file
 * under the readers' limits), the distinct values of each picklist column
 * with the option suggested for each (for tags, among the tags stored), and
 * the first rows as they would be stored (fixed values included) with every
 * problem per row and field. No record is written; what a scan of the whole
 * file found is kept with the upload (`keepScan`).
 * `readings` are the caller's, or the ones their language suggests.
 */
export async function previewImport(
  database: Database,
  entity: EntityDescription,
  actor: Actor,
  upload: PreviewedUpload,
  settings: ImportSettings,
  readings: Readings,
): Promise<ImportPreview> {
  const sheet = upload.source.kind === 'xlsx' ? (settings.sheet ?? upload.source.sheets[0] ?? null) : null;
  let heading: TableRow | undefined;
  const rows = rowsUnderHeading(
    sourceRows(upload.path, upload.source, { sheet: sheet ?? undefined, maxRows: Number.POSITIVE_INFINITY }),
    settings.headerRow,
    (row) => {
      heading = row;
    },
  );
  const sample: TableRow[] = [];
  const scanned: TableRow[] = [];
  let more = false;
  for await (const row of rows) {
    if (sample.length < PREVIEW_ROWS) sample.push(row);
    if (scanned.length === PREVIEW_SCAN_ROWS) {
      more = true;
      break;
    }
    scanned.push(row);
  }
  await rows.return(undefined);
  const headings = (heading?.cells ?? []).map(headingText);
  const suggested = suggestMapping(entity, headings, await rememberedMapping(database, actor.userId, entity.name));
  const mapping = headings.map((_, i) =>
    settings.mapping ? (settings.mapping[i] ?? null) : (suggested[i]?.target ?? null),
  );
  // A file none of whose headings suggests a field previews its headings for the caller to map.
  const nothingMapped = !settings.mapping && mapping.every((target) => target === null);
  const formatted = nothingMapped
    ? undefined
    : formatsOver(planRows(entity, actor, { ...settings, mapping }, readings), scanned);
  // Every row was read: the job need not read them again to decide the same formats.
  if (formatted && !more) await keepScan(database, upload, settings, scanned.length, formatted.found);
  const plan = formatted?.plan;
  const prepared = plan ? await prepareRows(database, plan, sample, new KeysSeen(), { preview: true }) : [];
  const picklists: ImportPreview['picklists'] = [];
  for (const { index, target } of plan?.columns ?? []) {
    const newValuesKept = Boolean(fieldTypeModule(target.field.type).storedOptions);
    const options = newValuesKept ? await storedOptions(database, entity, actor, target) : target.field.options;
    if (!options) continue;
    const counts = new Map<string, number>();
    let cut = more;
    for (const row of scanned) {
      const cell = row.cells[index];
      if (cell === null || cell === undefined || String(cell).trim() === '') continue;
      const read = fieldTypeModule(target.field.type).importCell(cell, target.part);
      for (const value of Array.isArray(read) ? read : [read]) {
        const text = String(value).trim();
        if (!counts.has(text) && counts.size === MAX_DISTINCT_VALUES) {
          cut = true;
          continue;
        }
        counts.set(text, (counts.get(text) ?? 0) + 1);
      }
    }
    const given = plan?.valueMaps.get(target.name);
    const suggest = newValuesKept ? tagSuggester(options) : (value: string) => suggestOption(value, options);
    picklists.push({
      field: target.name,
      column: index,
      options: [...options],
      newValuesKept,
      more: cut,
      values: [...counts].map(([value, count]) => {
        const chosen = given?.get(value);
        if (chosen !== undefined) return { value, rows: count, option: chosen, matchedBy: 'mapping' as const };
        const suggestion = suggest(value);
        return { value, rows: count, option: suggestion?.option ?? null, matchedBy: suggestion?.matchedBy ?? null };
      }),
    });
  }
  return {
    uploadId: upload.id,
    fileName: upload.fileName,
    kind: upload.source.kind,
    sheets: upload.source.sheets,
    sheet,
    dialect: upload.source.dialect,
    headerRow: heading?.number ?? settings.headerRow ?? 1,
    headings,
    columns: headings.map((text, index) => ({
      index,
      heading: text,
      target: mapping[index] ?? null,
      suggestedBy: settings.mapping ? null : (suggested[index]?.suggestedBy ?? null),
      format: plan?.columns.find((c) => c.index === index)?.format ?? null,
    })),
    fields: importableFields(entity).map(([name, field]) => ({
      name,
      label: field.label,
      type: field.type,
      required: Boolean(field.required),
      custom: Boolean(field.custom),
      parts: [...(fieldTypeModule(field.type).parts?.extra ?? [])],
      ...(field.options ? { options: [...field.options] } : {}),
      ...(field.to ? { to: field.to } : {}),
    })),
    picklists,
    duplicateKeys: [...(mapping.some((t) => t?.field === 'id') ? ['id'] : []), ...(entity.dedupKeys ?? [])],
    dateOrder: readings.dateOrder,
    dateOrderNeeded: plan ? needsDateOrder(plan) : false,
    decimalMark: readings.decimalMark,
    decimalMarkNeeded: plan ? needsDecimalMark(plan) : false,
    rows: prepared.map((row) => ({
      row: row.row,
      // A row matching a stored record names it by its id (what an ID column shows).
      values: { ...(row.match ? { id: row.match.id } : {}), ...(row.given ?? row.values) },
      names: row.referenceNames,
      previous: row.previous ?? {},
      previousNames: row.previousNames ?? {},
      problems: row.problems,
      action: settings.duplicates ? row.action : null,
    })),
  };
}
