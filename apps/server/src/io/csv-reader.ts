import { isUtf8 } from 'node:buffer';
import type { CsvDialect, CsvEncoding } from '@data-platform/shared/imports';
import { parse as parseSync } from 'csv-parse/sync';
import { csvUnescaped } from './csv-formulas.ts';
import { CsvRecords, MAX_RECORD_CHARS } from './csv-records.ts';
import { checkCellLength, checkRowCount, type TableRow, tableLimits, UnreadableTable, yieldToOthers } from './table.ts';

/** Bytes decoded and parsed per step, between which other requests run (a few milliseconds of work at most). */
const CHUNK_BYTES = 16 * 1024;
/** Bytes of the file's start its dialect is told from. */
export const DIALECT_SAMPLE_BYTES = 64 * 1024;
/** Records of the sample compared to tell the delimiter. */
const DIALECT_SAMPLE_RECORDS = 50;

const saveAsUtf8 =
  'Save it from your spreadsheet as "CSV UTF-8 (Comma delimited)" (or with the encoding UTF-8) and import it again';

/** The encoding a byte order mark names; none without one. */
function bomEncoding(bytes: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

/** The number of the first line that is not UTF-8 (a newline byte is never inside a UTF-8 character). */
function firstLineNotUtf8(bytes: Buffer): number {
  let line = 1;
  for (let start = 0; start <= bytes.length; line++) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline;
    if (!isUtf8(bytes.subarray(start, end))) return line;
    start = end + 1;
  }
  return line;
}

/** Bytes Windows-1252 leaves undefined: a file holding them is in some other encoding. */
const undefinedIn1252 = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

/**
 * The encoding of a file from its first bytes: a byte order mark says it;
 * otherwise UTF-8 when the bytes are UTF-8 (a character cut at the sample's
 * end allowed), else Windows-1252, what Excel on Windows writes as "CSV
 * (Comma delimited)" in Western locales, unless the bytes cannot be that
 * (NUL bytes of UTF-16 without a mark, bytes 1252 leaves undefined): then
 * the file is refused, never read as other characters than it holds.
 */
export function detectEncoding(head: Buffer): { encoding: CsvEncoding; bom: boolean } {
  const bom = bomEncoding(head);
  if (bom) return { encoding: bom, bom: true };
  // A UTF-8 character is at most 4 bytes: one cut at the end of the sample is not a fault.
  for (let cut = 0; cut <= Math.min(3, head.length); cut++) {
    if (isUtf8(head.subarray(0, head.length - cut))) return { encoding: 'utf-8', bom: false };
  }
  if (head.includes(0)) {
    throw new UnreadableTable(`This file looks like UTF-16 text without a byte order mark. ${saveAsUtf8}.`);
  }
  const odd = head.find((byte) => undefinedIn1252.has(byte));
  if (odd !== undefined) {
    throw new UnreadableTable(
      `This file is not UTF-8 text: line ${firstLineNotUtf8(head)} holds bytes of an encoding that cannot be told apart safely. ${saveAsUtf8}.`,
    );
  }
  return { encoding: 'windows-1252', bom: false };
}

/**
 * The delimiter that splits the sample's records into the most columns the
 * same number of times (comma, semicolon as spreadsheets write in locales
 * whose decimal mark is a comma, or tab); a comma when none splits anything.
 */
function detectDelimiter(sample: string): CsvDialect['delimiter'] {
  let best: { delimiter: CsvDialect['delimiter']; score: number } = { delimiter: ',', score: 0 };
  for (const delimiter of [',', ';', '\t'] as const) {
    let records: string[][];
    try {
      records = parseSync(sample, {
        delimiter,
        relax_column_count: true,
        relax_quotes: true,
        to: DIALECT_SAMPLE_RECORDS,
        skip_empty_lines: true,
      }) as string[][];
    } catch {
      continue;
    }
    // The last record of a cut sample may be cut too.
    const whole = records.length > 1 ? records.slice(0, -1) : records;
    const widths = new Map<number, number>();
    for (const record of whole) widths.set(record.length, (widths.get(record.length) ?? 0) + 1);
    const [width, times] = [...widths].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0] ?? [1, 0];
    if (width < 2) continue;
    const score = (times / whole.length) * width;
    if (score > best.score) best = { delimiter, score };
  }
  return best.delimiter;
}

/** How the sample's first line ends. */
function detectLineBreak(sample: string): CsvDialect['lineBreak'] {
  const at = sample.search(/[\r\n]/);
  if (at < 0 || sample[at] === '\n') return 'lf';
  return sample[at + 1] === '\n' ? 'crlf' : 'cr';
}

/** The dialect of a CSV file from its first bytes (at most `DIALECT_SAMPLE_BYTES`): encoding, delimiter, line ends. */
export function detectDialect(head: Buffer): CsvDialect {
  const { encoding, bom } = detectEncoding(head);
  const sample = new TextDecoder(encoding).decode(head.subarray(0, DIALECT_SAMPLE_BYTES));
  return { encoding, bom, delimiter: detectDelimiter(sample), lineBreak: detectLineBreak(sample) };
}

function countNewlines(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(0x0a); at >= 0; at = bytes.indexOf(0x0a, at + 1)) count += 1;
  return count;
}

async function* chunksOf(source: Buffer | AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  if (!Buffer.isBuffer(source)) {
    yield* source;
    return;
  }
  for (let start = 0; start < source.length; start += CHUNK_BYTES) yield source.subarray(start, start + CHUNK_BYTES);
}

/**
 * The file's text a chunk at a time. Bytes that are not text in the file's
 * encoding are refused: decoding them to U+FFFD would import other
 * characters than the file holds (a Latin-1 "é" does not survive), without
 * anyone noticing. Windows-1252 decodes every byte it defines.
 */
async function* textOf(source: Buffer | AsyncIterable<Buffer>, encoding: CsvEncoding): AsyncGenerator<string> {
  // Fatal: a byte sequence that is not text throws instead of becoming U+FFFD; the byte order mark is dropped.
  const decoder = new TextDecoder(encoding, { fatal: true });
  // Lines before `tail`, and the bytes since the last line break: enough to name the line of a fault.
  let lines = 0;
  let tail = Buffer.alloc(0);
  for await (const chunk of chunksOf(source)) {
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      if (encoding !== 'utf-8')
        throw new UnreadableTable(`This file is not ${encoding} text throughout. ${saveAsUtf8}.`);
      throw new UnreadableTable(
        `This file is not UTF-8 text: line ${lines + firstLineNotUtf8(Buffer.concat([tail, chunk]))} holds bytes of another encoding (such as Latin-1 or Windows-1252). ${saveAsUtf8}.`,
      );
    }
    const last = chunk.lastIndexOf(0x0a);
    // A line longer than a record may be is refused by the parser: the tail never needs to be longer.
    if (last < 0) tail = Buffer.concat([tail, chunk]).subarray(-4 * MAX_RECORD_CHARS);
    else {
      lines += 1 + countNewlines(chunk.subarray(0, last));
      tail = Buffer.from(chunk.subarray(last + 1));
    }
    yield text;
    await yieldToOthers();
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

export interface CsvReadOptions {
  /** The file's dialect; without it UTF-8 (or UTF-16 by its byte order mark), comma-separated. */
  dialect?: CsvDialect;
  /** Rows read at most, blank ones too (`tableLimits.rows` by default). */
  maxRows?: number;
}

/**
 * The rows of a CSV file, split as they are decoded (`CsvRecords`): rows,
 * columns and cell lengths are checked as each row is read, and other
 * requests run between chunks. Quoted cells may hold delimiters, quotes and
 * line breaks; records end in CRLF, LF or CR. A cell whose `'` the export
 * put before a formula loses it (`csvUnescaped`).
 */
export async function* readCsv(
  source: Buffer | AsyncIterable<Buffer>,
  { dialect, maxRows = tableLimits.rows }: CsvReadOptions = {},
): AsyncGenerator<TableRow> {
  const encoding = dialect?.encoding ?? (Buffer.isBuffer(source) ? (bomEncoding(source) ?? 'utf-8') : 'utf-8');
  const records = new CsvRecords(dialect?.delimiter ?? ',');
  let count = 0;
  const rowsOf = function* (cells: string[][]): Generator<TableRow> {
    for (const row of cells) {
      count += 1;
      checkRowCount(count, maxRows);
      for (let i = 0; i < row.length; i++) {
        checkCellLength((row[i] as string).length, count, i);
        // Text our export wrote behind a `'` (a formula) reads as it was stored (csv-formulas.ts).
        row[i] = csvUnescaped(row[i] as string);
      }
      yield { number: count, cells: row };
    }
  };
  for await (const text of textOf(source, encoding)) yield* rowsOf(records.push(text));
  yield* rowsOf(records.push('', true));
}
