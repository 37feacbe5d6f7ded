import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Cell } from '@data-platform/shared/fields/field-types';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { readXlsx } from './xlsx-reader.ts';
import {
  columnLetters,
  sheetName,
  writeXlsx,
  XLSX_CELL_CHARS,
  type XlsxWriteOptions,
  xlsxCellText,
  xmlText,
} from './xlsx-writer.ts';

/**
 * Our streaming XLSX writer: what it writes reads back cell for cell and type
 * for type in exceljs (its non-streaming reader) and in our own import reader;
 * the zip is one `unzip -t` and a hand-read central directory find whole,
 * ZIP64 records included; a slow reader holds it back and a destroyed output stops it.
 */

async function* pagesOf(rows: Cell[][], size = 1000): AsyncGenerator<Cell[][]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

async function written(name: string, headings: string[], rows: Cell[][], options?: XlsxWriteOptions): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => out.on('end', resolve));
  await writeXlsx(out, { name, headings }, pagesOf(rows), options);
  await ended;
  return Buffer.concat(chunks);
}

async function exceljsRead(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook;
}

/** Each row's cells as exceljs reads them, with each cell's type. */
function cellsOf(sheet: ExcelJS.Worksheet): { values: unknown[][]; types: ExcelJS.ValueType[][] } {
  const values: unknown[][] = [];
  const types: ExcelJS.ValueType[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => {
    values.push(Array.from((row.values as unknown[]).slice(1), (value) => value ?? null));
    const rowTypes: ExcelJS.ValueType[] = [];
    row.eachCell({ includeEmpty: true }, (cell) => {
      rowTypes.push(cell.type);
    });
    types.push(rowTypes);
  });
  return { values, types };
}

interface ZipEntry {
  name: string;
  flags: number;
  method: number;
  crc: number;
  data: Buffer;
  zip64: boolean;
}

/**
 * The zip read by hand from its end: the end of central directory (and the
 * ZIP64 one when the plain one says so), each central header, each local
 * header it points at, the entry's deflated bytes inflated and their CRC-32
 * checked, the data descriptor after them.
 */
function zipEntries(bytes: Buffer): ZipEntry[] {
  const end = bytes.length - 22;
  expect(bytes.readUInt32LE(end)).toBe(0x06054b50);
  let count = bytes.readUInt16LE(end + 10);
  let size = bytes.readUInt32LE(end + 12);
  let start = bytes.readUInt32LE(end + 16);
  if (count === 0xffff || start === 0xffffffff) {
    const locator = end - 20;
    expect(bytes.readUInt32LE(locator)).toBe(0x07064b50);
    const record = Number(bytes.readBigUInt64LE(locator + 8));
    expect(bytes.readUInt32LE(record)).toBe(0x06064b50);
    count = Number(bytes.readBigUInt64LE(record + 32));
    size = Number(bytes.readBigUInt64LE(record + 40));
    start = Number(bytes.readBigUInt64LE(record + 48));
    expect(record).toBe(start + size);
  } else {
    expect(end).toBe(start + size);
  }
  const entries: ZipEntry[] = [];
  let at = start;
  for (let i = 0; i < count; i++) {
    expect(bytes.readUInt32LE(at)).toBe(0x02014b50);
    const flags = bytes.readUInt16LE(at + 8);
    const method = bytes.readUInt16LE(at + 10);
    const crc = bytes.readUInt32LE(at + 16);
    let compressed = bytes.readUInt32LE(at + 20);
    let uncompressed = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    let offset = bytes.readUInt32LE(at + 42);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const zip64 = extraLength > 0;
    if (zip64) {
      const extra = at + 46 + nameLength;
      expect(bytes.readUInt16LE(extra)).toBe(0x0001);
      uncompressed = Number(bytes.readBigUInt64LE(extra + 4));
      compressed = Number(bytes.readBigUInt64LE(extra + 12));
      offset = Number(bytes.readBigUInt64LE(extra + 20));
    }
    at += 46 + nameLength + extraLength + bytes.readUInt16LE(at + 32);
    expect(bytes.readUInt32LE(offset)).toBe(0x04034b50);
    expect(bytes.readUInt16LE(offset + 6)).toBe(flags);
    const localName = bytes.readUInt16LE(offset + 26);
    const dataAt = offset + 30 + localName + bytes.readUInt16LE(offset + 28);
    const deflated = bytes.subarray(dataAt, dataAt + compressed);
    const data = zlib.inflateRawSync(deflated);
    expect(data.length).toBe(uncompressed);
    expect(zlib.crc32(data) >>> 0).toBe(crc);
    const descriptor = dataAt + compressed;
    expect(bytes.readUInt32LE(descriptor)).toBe(0x08074b50);
    expect(bytes.readUInt32LE(descriptor + 4)).toBe(crc);
    if (zip64) expect(Number(bytes.readBigUInt64LE(descriptor + 8))).toBe(compressed);
    else expect(bytes.readUInt32LE(descriptor + 8)).toBe(compressed);
    entries.push({ name, flags, method, crc, data, zip64 });
  }
  return entries;
}

const unzip = promisify(execFile);

/** `unzip -t` of the file, when unzip is installed: what it says, or undefined. */
async function unzipTest(bytes: Buffer): Promise<string | undefined> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'xlsx-writer-'));
  try {
    const file = path.join(directory, 'book.xlsx');
    await writeFile(file, bytes);
    const { stdout } = await unzip('unzip', ['-t', file]);
    return stdout;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

const long = 'x'.repeat(XLSX_CELL_CHARS + 5000);
/** A pair split by the cut at 32,766 characters: the emoji goes whole or not at all. */
const emojiAtCut = `${'y'.repeat(XLSX_CELL_CHARS - 2)}😀 and more`;
const texts: [string, string][] = [
  // [written, read back]
  ['<a href="x">&amp; \'q\' > ]]></a>', '<a href="x">&amp; \'q\' > ]]></a>'],
  ['bell\u0007 nul\u0000 esc\u001b del\u007f vt\u000b ff\u000c', 'bell nul esc del vt ff'],
  ['lone \ud800 high, lone \udc00 low, \ufffe and \uffff', 'lone  high, lone  low,  and '],
  ['  leading and trailing  ', '  leading and trailing  '],
  ['\ttab, then lines\nand\r\nCRLF\r', '\ttab, then lines\nand\r\nCRLF\r'],
  ['emoji 😀 and 👩‍👩‍👧, accents éàü, CJK 漢字', 'emoji 😀 and 👩‍👩‍👧, accents éàü, CJK 漢字'],
  ['=HYPERLINK("http://evil.example","Click")', '=HYPERLINK("http://evil.example","Click")'],
  [long, `${'x'.repeat(XLSX_CELL_CHARS - 1)}…`],
  ['z'.repeat(XLSX_CELL_CHARS), 'z'.repeat(XLSX_CELL_CHARS)],
  [emojiAtCut, `${'y'.repeat(XLSX_CELL_CHARS - 2)}…`],
];

describe('writeXlsx', () => {
  it('writes typed cells that exceljs and our import reader read back as they were', async () => {
    const headings = ['Text', 'Number', 'Boolean', 'Empty', 'Currency'];
    const rows: Cell[][] = [
      ...texts.map(([text], i): Cell[] => [text, i - 3.25, i % 2 === 0, null, 'EUR']),
      ['', 0, false, null, null],
      [null, 1e21, true, null, ''],
      ['-5', -5, false, null, 'Z'],
    ];
    const bytes = await written('Companies', headings, rows);
    const workbook = await exceljsRead(bytes);
    const sheet = workbook.getWorksheet('Companies');
    if (!sheet) throw new Error('No sheet named Companies');
    const { values, types } = cellsOf(sheet);
    expect(values).toEqual([
      headings,
      ...texts.map(([, read], i) => [read, i - 3.25, i % 2 === 0, null, 'EUR']),
      [null, 0, false],
      [null, 1e21, true],
      ['-5', -5, false, null, 'Z'],
    ]);
    const { String: text, Number: number, Boolean: boolean, Null: empty } = ExcelJS.ValueType;
    expect(types[1]).toEqual([text, number, boolean, empty, text]);
    expect(types.at(-1)).toEqual([text, number, boolean, empty, text]);
    sheet.eachRow((row) => {
      row.eachCell((cell) => expect(cell.formula).toBeUndefined());
    });
    // The heading row is bold, the others are not.
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.getRow(2).getCell(1).font?.bold).toBeFalsy();
    // Every text cell is an inline string; none is a formula string.
    const xml = zipEntries(bytes)
      .find((e) => e.name === 'xl/worksheets/sheet1.xml')
      ?.data.toString('utf8');
    expect(xml).toContain('<c r="A2" t="inlineStr"><is><t>&lt;a href=&quot;x&quot;&gt;&amp;amp;');
    expect(xml).not.toContain('t="str"');
    expect(xml).toContain('<c r="A5" t="inlineStr"><is><t xml:space="preserve">  leading');

    // Our import's reader (what an export is read back with) sees the same cells.
    const imported: Cell[][] = [];
    for await (const row of readXlsx(bytes)) imported.push(row.cells);
    expect(imported[0]).toEqual(headings);
    expect(imported.slice(1, texts.length + 1).map((cells) => cells[0])).toEqual(texts.map(([, read]) => read));
    expect(imported[2]).toEqual([texts[1]?.[1], -2.25, false, null, 'EUR']);
  });

  it('cleans and cuts text as the exceljs reference is given it', () => {
    for (const [text, read] of texts) expect(xlsxCellText(text)).toBe(read);
    expect(xmlText('a & b < c > d "e" \r f')).toBe('a &amp; b &lt; c &gt; d &quot;e&quot; &#13; f');
    expect(xmlText('plain text, 😀')).toBe('plain text, 😀');
  });

  it('writes a heading-only file when there are no rows, and a valid zip that unzip finds whole', async () => {
    const bytes = await written('Notes', ['ID', 'Note'], []);
    const workbook = await exceljsRead(bytes);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Notes']);
    expect(cellsOf(workbook.worksheets[0] as ExcelJS.Worksheet).values).toEqual([['ID', 'Note']]);
    const entries = zipEntries(bytes);
    expect(entries.map((e) => e.name)).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'docProps/app.xml',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    for (const entry of entries) {
      expect(entry.flags & 0x0008).toBe(0x0008);
      expect(entry.method).toBe(8);
      expect(entry.zip64).toBe(false);
    }
    const tested = await unzipTest(bytes);
    if (tested !== undefined) expect(tested).toMatch(/No errors detected/);
  });

  it('writes ZIP64 records that exceljs, unzip and a hand reading of the zip understand', async () => {
    const rows: Cell[][] = Array.from({ length: 2500 }, (_, i) => [`Row ${i}`, i, i % 3 === 0]);
    const bytes = await written('Big', ['Name', 'N', 'Odd'], rows, { forceZip64: true });
    const entries = zipEntries(bytes);
    expect(entries.every((e) => e.zip64)).toBe(true);
    const tested = await unzipTest(bytes);
    if (tested !== undefined) expect(tested).toMatch(/No errors detected/);
    const { values } = cellsOf((await exceljsRead(bytes)).worksheets[0] as ExcelJS.Worksheet);
    expect(values).toHaveLength(2501);
    expect(values[2500]).toEqual(['Row 2499', 2499, true]);
  });

  it('names the sheet validly: no [ ] : * ? / \\, at most 31 characters, escaped', async () => {
    expect(sheetName('Funds & [firms]: a/b\\c*d?')).toBe('Funds & firms a b c d');
    expect(sheetName("'Quoted'")).toBe('Quoted');
    expect(sheetName('A name that is much longer than thirty-one characters')).toBe('A name that is much longer than');
    expect(sheetName(`${'a'.repeat(30)}😀`)).toBe('a'.repeat(30));
    expect(sheetName(' :/ ')).toBe('Sheet1');
    expect(sheetName('History')).toBe('History 1');
    const bytes = await written('Deals <&> "pipeline"', ['ID'], [[1]]);
    expect((await exceljsRead(bytes)).worksheets[0]?.name).toBe('Deals <&> "pipeline"');
    expect([0, 25, 26, 701, 702, 16383].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'ZZ', 'AAA', 'XFD']);
  });

  it('waits for a slow reader, and stops reading pages when the output is destroyed', async () => {
    let read = 0;
    let finished = false;
    // Pages of text that compresses little, so that the zip fills the output's buffer.
    async function* endless(): AsyncGenerator<Cell[][]> {
      try {
        for (;;) {
          read++;
          yield Array.from({ length: 100 }, (_, i) => [
            Buffer.from(zlib.crc32(`${read}-${i}`).toString())
              .toString('base64')
              .repeat(40),
            i,
          ]);
        }
      } finally {
        finished = true;
      }
    }
    const out = new PassThrough();
    const writing = writeXlsx(out, { name: 'Slow', headings: ['Text', 'N'] }, endless());
    // Nobody reads: the writer waits once the buffers are full, a few pages in.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const waiting = read;
    expect(waiting).toBeLessThan(20);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(read).toBe(waiting);
    // A slow reader takes some: the writer goes on as far as it is read.
    const sink = new Writable({
      highWaterMark: 1024,
      write(_chunk, _encoding, done) {
        setTimeout(done, 5);
      },
    });
    out.pipe(sink);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(read).toBeGreaterThan(waiting);
    // The reader goes away: the writer returns and the pages are left.
    out.destroy();
    await writing;
    expect(finished).toBe(true);
    const stopped = read;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(read).toBe(stopped);
  });

  it('refuses more columns than a sheet holds before writing anything', async () => {
    const out = new PassThrough();
    const headings = Array.from({ length: 16_385 }, (_, i) => `C${i}`);
    await expect(writeXlsx(out, { name: 'Wide', headings }, pagesOf([]))).rejects.toThrow(/at most 16384 columns/);
    expect(out.writableLength).toBe(0);
  });
});
