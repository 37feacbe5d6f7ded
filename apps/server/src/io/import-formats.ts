import {
  type CellReading,
  type ColumnFormat,
  type DateOrder,
  type DecimalMark,
  dateOrderOfLanguage,
  decimalMarkOfLanguage,
  type EvidenceCounts,
  FormatEvidence,
} from '@data-platform/shared/fields/cell-formats';
import { fieldTypeModule } from '@data-platform/shared/fields/field-types';
import { z } from 'zod';
import type { ImportTarget } from './import-mapping.ts';
import type { RowPlan } from './import-rows.ts';
import type { TableRow } from './table.ts';

/**
 * How each mapped column of a file writes its dates and numbers, decided
 * once from all of its rows (packages/shared/src/fields/cell-formats.ts), so
 * that every cell of a column is read the same way: the preview decides it
 * over the rows it scans, a job over the whole file before its first batch.
 * The file is the same upload both times, so both decide alike; where the
 * preview's scan was the whole file (`FileScan`), the job decides from what
 * it found instead of reading the file a first time.
 */

/** What a target's cells hold that a column decides: its field type's `importReads`, for its main part only. */
export function readsOf(target: ImportTarget): CellReading | undefined {
  const module = fieldTypeModule(target.field.type);
  if (target.part !== undefined && target.part !== module.parts?.main) return undefined;
  return module.importReads;
}

/** How an import reads the cells a column's values leave open: a day/month order, a decimal mark. */
export interface Readings {
  dateOrder: DateOrder;
  decimalMark: DecimalMark;
}

/**
 * The caller's choices, else what the caller's language writes (the first
 * language of Accept-Language by weight; the web app sends the one of its
 * interface): its day/month order and its decimal mark.
 */
export function suggestedReadings(
  acceptLanguage: string | undefined,
  chosen: { dateOrder?: DateOrder | undefined; decimalMark?: DecimalMark | undefined } = {},
): Readings {
  const language = firstLanguage(acceptLanguage);
  return {
    dateOrder: chosen.dateOrder ?? dateOrderOfLanguage(language),
    decimalMark: chosen.decimalMark ?? decimalMarkOfLanguage(language),
  };
}

function firstLanguage(acceptLanguage: string | undefined): string | undefined {
  const [first] = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), weight: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return first?.tag;
}

const count = z.number().int().min(0);
/** What the values of a column said, as a kept scan holds them (`FormatEvidence.counts`). */
const evidenceCountsSchema: z.ZodType<EvidenceCounts> = z.strictObject({
  dayFirst: count,
  monthFirst: count,
  eitherWay: count,
  point: count,
  comma: count,
  eitherMark: count,
});

/**
 * What a preview that read every row of an upload found of its columns'
 * dates and numbers, kept with the upload (`imports.scan`): the sheet and
 * heading row it was read with (as the caller gave them, null when not),
 * its rows, and by column index what its values said when read as each kind.
 * A job started with the same sheet and heading row decides its columns'
 * formats from it, for the columns it covers, without a pass over the file.
 */
export const fileScanSchema = z.strictObject({
  sheet: z.string().nullable(),
  headerRow: z.number().int().nullable(),
  rows: z.number().int().min(0),
  columns: z.record(z.string(), z.partialRecord(z.enum(['date', 'number']), evidenceCountsSchema)),
});
export type FileScan = z.infer<typeof fileScanSchema>;

/** A file's sheet and heading row as a preview or a job was asked to read it (`FileScan`'s key). */
export interface ScanKey {
  sheet?: string | undefined;
  headerRow?: number | undefined;
}

/** Whether `scan` was taken with the sheet and heading row of `key`. */
export const scanFits = (scan: FileScan, key: ScanKey): boolean =>
  scan.sheet === (key.sheet ?? null) && scan.headerRow === (key.headerRow ?? null);

/** What a file's rows say of how each column of dates or numbers writes them, gathered a row at a time. */
export class ColumnFormatScan {
  private readonly evidence = new Map<number, { evidence: FormatEvidence; own: Partial<Readings> }>();

  /**
   * `own`: a column's own readings, which take the place of the import's for
   * it. `found`: what a scan of the whole file found (`FileScan.columns`),
   * taken as each column's evidence so far.
   */
  constructor(
    columns: readonly { index: number; target: ImportTarget; own?: Partial<Readings> }[],
    found?: FileScan['columns'],
  ) {
    for (const { index, target, own = {} } of columns) {
      const reads = readsOf(target);
      if (reads) this.evidence.set(index, { evidence: new FormatEvidence(reads, found?.[index]?.[reads]), own });
    }
  }

  note(row: TableRow): void {
    for (const [index, { evidence }] of this.evidence) evidence.note(row.cells[index]);
  }

  /** What the rows noted said, by column index and kind (`FileScan.columns`). */
  found(): FileScan['columns'] {
    return Object.fromEntries(
      [...this.evidence].map(([index, { evidence }]) => [String(index), { [evidence.reads]: evidence.counts() }]),
    );
  }

  /**
   * Each such column's format by position; where its values could all be
   * read either way, its own readings, else these (the import's).
   */
  decide(readings: Readings): Map<number, ColumnFormat> {
    return new Map(
      [...this.evidence].map(([index, { evidence, own }]) => [
        index,
        evidence.decide(own.dateOrder ?? readings.dateOrder, own.decimalMark ?? readings.decimalMark),
      ]),
    );
  }
}

/** The format of a value given for every row, from itself alone. */
function fixedFormat(target: ImportTarget, value: string, readings: Readings): ColumnFormat | null {
  const reads = readsOf(target);
  if (!reads) return null;
  const evidence = new FormatEvidence(reads);
  evidence.note(value);
  return evidence.decide(readings.dateOrder, readings.decimalMark);
}

/** The plan with each column's format, and each fixed value's. */
function decided(plan: RowPlan, scan: ColumnFormatScan): RowPlan {
  const formats = scan.decide(plan);
  return {
    ...plan,
    columns: plan.columns.map((column) => ({ ...column, format: formats.get(column.index) ?? null })),
    fixed: plan.fixed.map((fixed) => ({ ...fixed, format: fixedFormat(fixed.target, fixed.value, plan) })),
  };
}

/** The plan with its formats decided over these rows (the preview's scan), and what the rows said. */
export function formatsOver(plan: RowPlan, rows: Iterable<TableRow>): { plan: RowPlan; found: FileScan['columns'] } {
  const scan = new ColumnFormatScan(plan.columns);
  for (const row of rows) scan.note(row);
  return { plan: decided(plan, scan), found: scan.found() };
}

/**
 * The plan with its formats decided from a preview's scan of the whole file,
 * with the file's rows; undefined when the scan was taken with another sheet
 * or heading row, or does not cover each column of dates or numbers.
 */
export function formatsFromScan(
  plan: RowPlan,
  scan: FileScan,
  key: ScanKey,
): { plan: RowPlan; rowCount: number } | undefined {
  if (!scanFits(scan, key)) return undefined;
  const covered = plan.columns.every(({ index, target }) => {
    const reads = readsOf(target);
    return !reads || scan.columns[index]?.[reads] !== undefined;
  });
  if (!covered) return undefined;
  return { plan: decided(plan, new ColumnFormatScan(plan.columns, scan.columns)), rowCount: scan.rows };
}

/**
 * The plan with its formats decided over every row of the file, read as a
 * stream (a job's pass before its first batch), and how many rows it has.
 */
export async function withFormats(
  plan: RowPlan,
  rows: AsyncIterable<TableRow>,
): Promise<{ plan: RowPlan; rowCount: number }> {
  const scan = new ColumnFormatScan(plan.columns);
  let rowCount = 0;
  for await (const row of rows) {
    scan.note(row);
    rowCount += 1;
  }
  return { plan: decided(plan, scan), rowCount };
}

/** Whether a column or a fixed value reads numbers with the chosen mark (every mark in it could be either). */
export const needsDecimalMark = (plan: RowPlan): boolean =>
  [...plan.columns, ...plan.fixed].some(
    ({ format }: { format: ColumnFormat | null }) => format?.decimalMarkFrom === 'choice',
  );

/** Whether a column or a fixed value reads dates in the chosen order (every one in it could be read either way). */
export const needsDateOrder = (plan: RowPlan): boolean =>
  [...plan.columns, ...plan.fixed].some(
    ({ format }: { format: ColumnFormat | null }) => format?.dateOrderFrom === 'choice',
  );
