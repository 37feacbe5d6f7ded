import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { checkCellLength, checkRowCount, type TableRow, tableLimits, UnreadableTable, yieldToOthers } from './table.ts';

/** Bytes decoded and parsed per step, between which other requests run (a few milliseconds of work at most). */
const CHUNK_BYTES = 16 * 1024;
/** Characters of one record, its cells together: ten cells at the longest a cell may be. */
const MAX_RECORD_CHARS = 10 * tableLimits.cellChars;

const saveAsUtf8 =
  'Save it from your spreadsheet as "CSV UTF-8 (Comma delimited)" (or with the encoding UTF-8) and import it again';

/** UTF-8 unless a UTF-16 byte order mark says otherwise; a UTF-8 one is read past. */
function encodingOf(bytes: Buffer): 'utf-8' | 'utf-16le' | 'utf-16be' {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return 'utf-8';
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

/**
 * The file's text a chunk at a time. Bytes that are not text in the file's
 * encoding are refused: decoding them to U+FFFD would import other
 * characters than the file holds (a Latin-1 "é" does not survive), without
 * anyone noticing.
 */
async function* textOf(bytes: Buffer): AsyncGenerator<string> {
  const encoding = encodingOf(bytes);
  // Fatal: a byte sequence that is not text throws instead of becoming U+FFFD; the byte order mark is dropped.
  const decoder = new TextDecoder(encoding, { fatal: true });
  for (let start = 0; start < bytes.length; start += CHUNK_BYTES) {
    const end = Math.min(bytes.length, start + CHUNK_BYTES);
    let text: string;
    try {
      text = decoder.decode(bytes.subarray(start, end), { stream: end < bytes.length });
    } catch {
      if (encoding !== 'utf-8') throw new UnreadableTable(`This file starts as UTF-16 text but is not. ${saveAsUtf8}.`);
      throw new UnreadableTable(
        `This file is not UTF-8 text: line ${firstLineNotUtf8(bytes.subarray(0, end))} holds bytes of another encoding (such as Latin-1 or Windows-1252). ${saveAsUtf8}.`,
      );
    }
    yield text;
    await yieldToOthers();
  }
}

/**
 * The rows of a CSV file (UTF-8 with or without a byte order mark, or UTF-16
 * with one), parsed as they are decoded: rows, columns and cell lengths are
 * checked as each cell is read, and other requests run between chunks.
 */
export async function* readCsv(bytes: Buffer): AsyncGenerator<TableRow> {
  const parser = parse({
    relax_column_count: true,
    max_record_size: MAX_RECORD_CHARS,
    // Called for each cell as it is read: a row of a million empty cells is refused at its 1,001st.
    cast: (value, context) => {
      const rowNumber = context.records + 1;
      if (context.index >= tableLimits.columns) {
        throw new UnreadableTable(`Row ${rowNumber} has more than ${tableLimits.columns.toLocaleString('en')} columns`);
      }
      checkCellLength(value.length, rowNumber, context.index);
      return value;
    },
  });
  const source = Readable.from(textOf(bytes));
  source.on('error', (error) => parser.destroy(error));
  source.pipe(parser);
  let count = 0;
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      count += 1;
      checkRowCount(count);
      yield { number: count, cells };
    }
  } catch (error) {
    if (error instanceof UnreadableTable) throw error;
    if (error instanceof CsvError && error.code === 'CSV_MAX_RECORD_SIZE') {
      throw new UnreadableTable(`Row ${count + 1} is longer than ${MAX_RECORD_CHARS.toLocaleString('en')} characters`);
    }
    throw new UnreadableTable(`This CSV cannot be read: ${(error as Error).message}`);
  } finally {
    source.destroy();
    parser.destroy();
  }
}
