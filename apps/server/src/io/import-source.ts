import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CsvDialect } from '@data-platform/shared/imports';
import { DIALECT_SAMPLE_BYTES, detectDialect, readCsv } from './csv-reader.ts';
import { type Cell, type TableRow, UnreadableTable } from './table.ts';
import { readXlsx, xlsxSheetNames } from './xlsx-reader.ts';

/**
 * An uploaded import file on disk: what kind it is (told from its bytes),
 * and its rows read as a stream from the heading row on. A CSV is read a
 * chunk at a time from disk; a workbook is held zipped (it is at most the
 * upload limit) and its sheet inflated and parsed as a stream.
 */

/** Where an upload's bytes are kept: named by its row id, never by anything the client sent. */
export function uploadPath(dataDir: string, id: number): string {
  return path.join(dataDir, 'imports', String(id));
}

export interface SourceFile {
  kind: 'csv' | 'xlsx';
  /** A CSV's dialect. */
  dialect: CsvDialect | null;
  /** A workbook's sheets, in order. */
  sheets: string[];
}

const extensions = new Set(['.csv', '.tsv', '.txt', '.xlsx']);

/**
 * The kind of an uploaded file from its first bytes: a zip is a workbook
 * (its sheets listed), an OLE file a legacy workbook (refused), anything
 * else CSV text whose dialect is detected. Names other than .csv, .tsv,
 * .txt and .xlsx are refused.
 */
export async function inspectSource(file: string, name: string): Promise<SourceFile> {
  if (!extensions.has(path.extname(name).toLowerCase())) {
    throw new UnreadableTable('Import a .csv (or .tsv, .txt) or .xlsx file');
  }
  const handle = await open(file, 'r');
  const head = Buffer.alloc(DIALECT_SAMPLE_BYTES);
  let length: number;
  try {
    ({ bytesRead: length } = await handle.read(head, 0, head.length, 0));
  } finally {
    await handle.close();
  }
  const start = head.subarray(0, length);
  if (start[0] === 0x50 && start[1] === 0x4b) {
    return { kind: 'xlsx', dialect: null, sheets: await xlsxSheetNames(await readFile(file)) };
  }
  if (start.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) {
    throw new UnreadableTable('This is an Excel 97-2003 workbook (.xls); save it as .xlsx or CSV and import it again');
  }
  if (length === 0) throw new UnreadableTable('The file is empty');
  return { kind: 'csv', dialect: detectDialect(start), sheets: [] };
}

export interface ReadOptions {
  sheet?: string;
  /** Rows read at most, blank ones too. */
  maxRows?: number;
}

/** Every row of the file (of the chosen sheet), blank ones too, as they are read. */
export async function* sourceRows(
  file: string,
  source: SourceFile,
  options: ReadOptions = {},
): AsyncGenerator<TableRow> {
  if (source.kind === 'xlsx') {
    yield* readXlsx(await readFile(file), undefined, options);
    return;
  }
  const stream = createReadStream(file, { highWaterMark: 64 * 1024 });
  try {
    yield* readCsv(stream as AsyncIterable<Buffer>, { dialect: source.dialect ?? undefined, maxRows: options.maxRows });
  } finally {
    stream.destroy();
  }
}

export const isBlank = (cells: readonly Cell[]) => cells.every((cell) => cell === null || String(cell).trim() === '');

/** A cell as the text a heading is. */
export const headingText = (cell: Cell | undefined) => (cell === null || cell === undefined ? '' : String(cell).trim());

/**
 * The heading row (by number; the first row that is not blank by default)
 * and the rows under it that are not blank, as they are read.
 */
export async function* rowsUnderHeading(
  rows: AsyncIterable<TableRow>,
  headerRow: number | undefined,
  onHeading: (heading: TableRow) => void,
): AsyncGenerator<TableRow> {
  let heading: TableRow | undefined;
  for await (const row of rows) {
    if (!heading) {
      if (headerRow === undefined ? isBlank(row.cells) : row.number < headerRow) continue;
      if (headerRow !== undefined && row.number > headerRow) {
        throw new UnreadableTable(`Row ${headerRow} is blank; pick the row that holds the headings`);
      }
      heading = row;
      onHeading(row);
      continue;
    }
    if (!isBlank(row.cells)) yield row;
  }
  if (!heading) throw new UnreadableTable('The file has no heading row');
}
