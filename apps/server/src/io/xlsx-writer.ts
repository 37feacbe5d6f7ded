import type { Writable } from 'node:stream';
import zlib from 'node:zlib';
import type { Cell } from '@data-platform/shared/fields/field-types';

/**
 * A streaming XLSX writer of one sheet: the smallest SpreadsheetML package
 * spreadsheet programs open (content types, relationships, a workbook, a
 * style sheet with a bold heading, the sheet), its zip written by hand as the
 * rows come. Each zip entry is deflated as it is written, a page at a time
 * on libuv's thread pool, up to three pages at once, their blocks written in
 * order (deflatePage), with its CRC-32 computed on the way, sizes in a data
 * descriptor after it, the central directory at the end; ZIP64 records where a size or an offset
 * passes 4 GB (as Go's archive/zip does: the local header stays plain, the
 * data descriptor and the central directory carry the 64-bit sizes).
 *
 * Cells are typed: a number is a number, a boolean a boolean (t="b"), text an
 * inline string (t="inlineStr": never a formula, whatever it starts with),
 * null or empty text no cell. Text loses the characters XML 1.0 forbids (and
 * DEL, as exceljs drops it), keeps carriage returns (written as &#13;, which
 * an XML reader would otherwise turn into line feeds) and its leading and
 * trailing spaces, and is cut at Excel's 32,767 characters (see xlsxText).
 *
 * Rows are written a page at a time (its XML built in strings of 16 K
 * characters, one write of its bytes; or made as bytes already, see
 * writeXlsxXml), the next page read and made while pages are compressed,
 * and every write waits while the output is behind: memory holds a few
 * pages, whatever the speed of the download. When the output is destroyed (the
 * reader went away) the writer stops reading pages and returns.
 *
 * Left out: more than one sheet, shared strings, dates as date cells (the
 * export's dates are text), column widths, a frozen heading. Rows past
 * Excel's 1,048,576 are written (Excel opens the file and says it did not
 * load them all, as it did with exceljs's file).
 */

/** Excel's limit on the characters of a cell; longer text opens as a damaged file. */
export const XLSX_CELL_CHARS = 32_767;

/** Excel's last column (XFD). */
export const XLSX_COLUMNS = 16_384;

export interface XlsxSheet {
  /** The sheet's name, made valid by `sheetName`. */
  name: string;
  /** The first row's cells, in bold. */
  headings: readonly string[];
}

export interface XlsxWriteOptions {
  /** zlib's level, 1 (fastest) to 9 (smallest). */
  level?: number;
  /** Writes ZIP64 records whatever the sizes: how the tests check them without writing 4 GB. */
  forceZip64?: boolean;
}

/**
 * Level 1: the bench's 100,000 companies made 20.7 MB (exceljs's file was 20.1 MB) against 17.1 MB
 * at zlib's default 6, which took 1.7 to 1.9 s longer to write (see decision 0035).
 */
const DEFAULT_LEVEL = 1;

const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/**
 * What XML 1.0 cannot hold (C0 controls but tab, LF, CR; lone surrogates; U+FFFE, U+FFFF), DEL, and what
 * is escaped. `special` tests without the u flag, faster: it also finds the halves of a pair, which
 * `specials` (u: a pair is one character) then leaves alone.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what it is for.
const special = /[&<>"\r\0-\x08\x0B\x0C\x0E-\x1F\x7F\uD800-\uDFFF\uFFFE\uFFFF]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what it is for.
const specials = /[&<>"\r\0-\x08\x0B\x0C\x0E-\x1F\x7F\uD800-\uDFFF\uFFFE\uFFFF]/gu;
const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\r': '&#13;' };

/** What XML 1.0 cannot hold, and DEL (exceljs drops it too). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what it is for.
const forbidden = /[\0-\x08\x0B\x0C\x0E-\x1F\x7F\uD800-\uDFFF\uFFFE\uFFFF]/gu;

/** Text as XML character data or an attribute value: escaped, without the characters XML forbids. */
export function xmlText(text: string): string {
  return special.test(text) ? text.replace(specials, (c) => escapes[c] ?? '') : text;
}

/**
 * A text cell's text as the sheet holds it: at most 32,767 characters (UTF-16
 * code units, as Excel counts), longer text cut to its first 32,766 and an
 * ellipsis, a surrogate pair never split. Excel reports a file with a longer
 * cell as damaged and its repair cuts the text anyway; the CSV export keeps it whole.
 */
export function xlsxText(text: string): string {
  if (text.length <= XLSX_CELL_CHARS) return text;
  let end = XLSX_CELL_CHARS - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** A text cell's text as the sheet holds it, read back: cut (xlsxText), without what XML forbids. */
export function xlsxCellText(text: string): string {
  return xlsxText(text).replace(forbidden, '');
}

/**
 * A valid sheet name: without the characters Excel refuses in one ([ ] : * ? / \)
 * or XML does, not starting or ending with an apostrophe, at most 31
 * characters, not blank and not Excel's reserved "History".
 */
export function sheetName(name: string): string {
  let valid = name
    .replace(forbidden, '')
    .replace(/[[\]:*?/\\]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^'+|'+$/g, '')
    .trim();
  if (valid.length > 31) {
    const last = valid.charCodeAt(30);
    valid = valid.slice(0, last >= 0xd800 && last <= 0xdbff ? 30 : 31).trimEnd();
  }
  if (valid === '') return 'Sheet1';
  return valid.toLowerCase() === 'history' ? `${valid} 1` : valid;
}

/** A column's letters: 0 → A, 25 → Z, 26 → AA. */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** Whether XML text starts or ends with whitespace (a CR is written &#13;), which the sheet must say to keep. */
function edgeSpace(text: string): boolean {
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  return (
    first === 32 ||
    first === 9 ||
    first === 10 ||
    last === 32 ||
    last === 9 ||
    last === 10 ||
    (first === 38 && text.startsWith('&#13;')) ||
    (last === 59 && text.endsWith('&#13;'))
  );
}

/** A cell's XML at `ref` (A2), `style` ' s="1"' for the bold heading; '' for null or empty text (no cell). */
export function cellXml(cell: Cell, ref: string, style: string): string {
  if (cell === null || cell === undefined || cell === '') return '';
  const open = `<c r="${ref}"${style}`;
  if (typeof cell === 'number' && Number.isFinite(cell)) return `${open}><v>${cell}</v></c>`;
  if (typeof cell === 'boolean') return `${open} t="b"><v>${cell ? 1 : 0}</v></c>`;
  const text = xmlText(xlsxText(String(cell)));
  return `${open} t="inlineStr"><is>${edgeSpace(text) ? '<t xml:space="preserve">' : '<t>'}${text}</t></is></c>`;
}

/** A row's XML: typed cells, `style` ' s="1"' for the bold heading. */
function rowXml(cells: readonly Cell[], row: number, letters: readonly string[], style: string): string {
  let xml = `<row r="${row}">`;
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    if (cell === null || cell === undefined || cell === '') continue;
    xml += cellXml(cell, `${letters[i] ?? columnLetters(i)}${row}`, style);
  }
  return `${xml}</row>`;
}

/**
 * Characters of XML turned into bytes at a time. A string built by `+=` is
 * flattened when encoded; past V8's regular object size (128 KB: 64 K
 * characters of two-byte text) each flat copy goes to the large-object
 * space, and a 2,000-row page as one string, or 64 K pieces, took 6 to 8
 * times longer to encode than 16 K pieces (measured on the bench's rows).
 */
const CHUNK_CHARS = 16 * 1024;

/** A page of rows' XML as UTF-8, the rows numbered after `last`. */
export function pageXml(page: readonly (readonly Cell[])[], last: number, letters: readonly string[]): Buffer {
  const chunks: Buffer[] = [];
  let xml = '';
  let row = last;
  for (const cells of page) {
    xml += rowXml(cells, ++row, letters, '');
    if (xml.length >= CHUNK_CHARS) {
      chunks.push(Buffer.from(xml, 'utf8'));
      xml = '';
    }
  }
  chunks.push(Buffer.from(xml, 'utf8'));
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
}

/** The fixed parts of the package, the sheet named `name` (already valid). */
function packageParts(name: string): [string, string][] {
  return [
    [
      '[Content_Types].xml',
      `${XML_DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        '<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>' +
        '</Types>',
    ],
    [
      '_rels/.rels',
      `${XML_DECLARATION}<Relationships xmlns="${NS_PKG_REL}">` +
        `<Relationship Id="rId1" Type="${NS_REL}/officeDocument" Target="xl/workbook.xml"/>` +
        `<Relationship Id="rId2" Type="${NS_REL}/extended-properties" Target="docProps/app.xml"/>` +
        '</Relationships>',
    ],
    [
      'docProps/app.xml',
      `${XML_DECLARATION}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">` +
        '<Application>Data Platform</Application></Properties>',
    ],
    [
      'xl/workbook.xml',
      `${XML_DECLARATION}<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">` +
        `<sheets><sheet name="${xmlText(name)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${XML_DECLARATION}<Relationships xmlns="${NS_PKG_REL}">` +
        `<Relationship Id="rId1" Type="${NS_REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
        `<Relationship Id="rId2" Type="${NS_REL}/styles" Target="styles.xml"/>` +
        '</Relationships>',
    ],
    [
      'xl/styles.xml',
      `${XML_DECLARATION}<styleSheet xmlns="${NS_MAIN}">` +
        '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
        '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
        '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
        '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
        '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
        '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
        '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
        '</styleSheet>',
    ],
  ];
}

/**
 * Writes the workbook of one sheet to `out`: the heading row, then each page
 * of rows as it comes, then ends `out`. Resolves when the file is written,
 * or as soon as `out` is destroyed: the pages are then left (a generator's
 * `finally` runs) and nothing more is read.
 */
export async function writeXlsx(
  out: Writable,
  sheet: XlsxSheet,
  pages: AsyncIterable<readonly (readonly Cell[])[]>,
  options: XlsxWriteOptions = {},
): Promise<void> {
  const letters = sheet.headings.map((_, i) => columnLetters(i));
  async function* xml() {
    let row = 1;
    for await (const page of pages) {
      yield pageXml(page, row, letters);
      row += page.length;
    }
  }
  await writeXlsxXml(out, sheet, xml(), options);
}

/**
 * writeXlsx of rows whose XML is made already (`<row r="2">...</row>...` as
 * UTF-8, numbered from 2, a page per item: see xlsx-copy-rows.ts), each
 * compressed while the next is made.
 */
export async function writeXlsxXml(
  out: Writable,
  sheet: XlsxSheet,
  pages: AsyncIterable<Buffer>,
  options: XlsxWriteOptions = {},
): Promise<void> {
  if (sheet.headings.length > XLSX_COLUMNS) {
    throw new Error(`A sheet holds at most ${XLSX_COLUMNS} columns; this export has ${sheet.headings.length}`);
  }
  const zip = new ZipWriter(out, options);
  for (const [name, xml] of packageParts(sheetName(sheet.name))) {
    const entry = await zip.entry(name);
    await entry.write(xml);
    await entry.end();
  }
  const letters = sheet.headings.map((_, i) => columnLetters(i));
  const entry = await zip.entry('xl/worksheets/sheet1.xml');
  await entry.write(
    `${XML_DECLARATION}<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_REL}"><sheetData>${rowXml(sheet.headings, 1, letters, ' s="1"')}`,
  );
  const iterator = pages[Symbol.asyncIterator]();
  let next = iterator.next();
  let done = false;
  try {
    for (;;) {
      const result = await next;
      done = result.done === true;
      // The reader went away: leave the pages (their generator ends), nothing more is read.
      if (done || out.destroyed) break;
      // One page read ahead: the next page is read and made while this one is compressed and written.
      next = iterator.next();
      await entry.write(result.value);
    }
  } finally {
    if (!done) {
      // A page still being read is awaited (and its failure dropped) before the pages are ended.
      await next.catch(() => undefined);
      await iterator.return?.();
    }
  }
  if (out.destroyed) return;
  await entry.write('</sheetData></worksheet>');
  await entry.end();
  await zip.end();
}

/** The zip's record of an entry written: what its central directory header says. */
interface Written {
  name: Buffer;
  offset: number;
  crc: number;
  compressed: number;
  size: number;
  time: number;
  date: number;
}

const UINT32_MAX = 0xffffffff;
const UINT16_MAX = 0xffff;
/** Bit 3: the CRC and sizes follow the data, in a data descriptor. */
const FLAG_DESCRIPTOR = 0x0008;
const METHOD_DEFLATE = 8;

/** The moment in MS-DOS's form: [time, date] (2-second precision, local time as zip readers show it). */
function dosDateTime(at: Date): [number, number] {
  const time = (at.getHours() << 11) | (at.getMinutes() << 5) | Math.floor(at.getSeconds() / 2);
  const date = (Math.max(at.getFullYear() - 1980, 0) << 9) | ((at.getMonth() + 1) << 5) | at.getDate();
  return [time, date];
}

/**
 * Pages of an entry compressed at once, on libuv's thread pool, while the
 * caller makes the next: one deflater compressed 1,000,000 companies' sheet
 * (1.26 GB of XML) at about 280 MB/s, and kept a core idle between pages.
 */
const PAGES_COMPRESSING = 3;

/**
 * A page as deflate blocks that end on a byte (a sync flush) and do not
 * look back before the page, so that pages compressed apart are one deflate
 * stream when written one after another (as pigz does); the stream's last
 * block is FINAL_BLOCK. A page read on its own costs about 1 % of the size
 * (6.04 times smaller at 1 MB pages, against 6.06 as one stream).
 */
function deflatePage(page: Buffer, level: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // One output buffer a page: with zlib's 16 KB, each 16 KB came back through the main thread (about
    // a fifth of an export's time in Node).
    const options = { level, finishFlush: zlib.constants.Z_SYNC_FLUSH, chunkSize: Math.max(page.length, 64 * 1024) };
    zlib.deflateRaw(page, options, (error, bytes) => (error ? reject(error) : resolve(bytes)));
  });
}

/** The last block of a deflate stream: empty, fixed codes, final (what zlib ends an empty stream with). */
const FINAL_BLOCK = zlib.deflateRawSync(Buffer.alloc(0));

/** The stream-out zip writer: entries one after another, each deflated as written. */
class ZipWriter {
  private offset = 0;
  private readonly written: Written[] = [];
  private readonly level: number;
  private readonly forceZip64: boolean;
  private readonly time: number;
  private readonly date: number;

  constructor(
    private readonly out: Writable,
    options: XlsxWriteOptions,
  ) {
    this.level = options.level ?? DEFAULT_LEVEL;
    this.forceZip64 = options.forceZip64 === true;
    [this.time, this.date] = dosDateTime(new Date());
  }

  /** Writes to the output, waiting while it is behind (or until it is gone). */
  private async put(bytes: Buffer): Promise<void> {
    this.offset += bytes.length;
    if (!this.out.write(bytes)) await drainedOrGone(this.out, this.out);
  }

  private zip64(sizes: { compressed: number; size: number; offset: number }): boolean {
    return this.forceZip64 || sizes.compressed >= UINT32_MAX || sizes.size >= UINT32_MAX || sizes.offset >= UINT32_MAX;
  }

  /** Starts an entry: its local header, then its data deflated a page (a write) at a time, in order (deflatePage). */
  async entry(name: string): Promise<{ write: (text: string | Buffer) => Promise<void>; end: () => Promise<void> }> {
    const nameBytes = Buffer.from(name, 'utf8');
    const offset = this.offset;
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    header.writeUInt16LE(FLAG_DESCRIPTOR, 6);
    header.writeUInt16LE(METHOD_DEFLATE, 8);
    header.writeUInt16LE(this.time, 10);
    header.writeUInt16LE(this.date, 12);
    // CRC-32 and sizes (14..25) stay 0: they are in the data descriptor.
    header.writeUInt16LE(nameBytes.length, 26);
    header.writeUInt16LE(0, 28);
    await this.put(Buffer.concat([header, nameBytes]));

    let crc = 0;
    let size = 0;
    let compressed = 0;
    // Pages being compressed, oldest first: their output goes out in order.
    const compressing: Promise<Buffer>[] = [];
    const putOldest = async () => {
      const bytes = await (compressing.shift() as Promise<Buffer>);
      compressed += bytes.length;
      if (!this.out.destroyed) await this.put(bytes);
    };
    const write = async (text: string | Buffer) => {
      if (this.out.destroyed) return;
      const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
      if (bytes.length === 0) return;
      crc = zlib.crc32(bytes, crc);
      size += bytes.length;
      const page = deflatePage(bytes, this.level);
      // Failures are thrown where the page is awaited (putOldest), not reported as unhandled before.
      page.catch(() => undefined);
      compressing.push(page);
      while (compressing.length >= PAGES_COMPRESSING) await putOldest();
    };
    const end = async () => {
      while (compressing.length > 0) await putOldest();
      if (this.out.destroyed) return;
      await this.put(FINAL_BLOCK);
      compressed += FINAL_BLOCK.length;
      // 64-bit sizes when they need them (the local header cannot say which: readers take them from the directory).
      const zip64 = this.forceZip64 || compressed >= UINT32_MAX || size >= UINT32_MAX;
      const descriptor = Buffer.alloc(zip64 ? 24 : 16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc >>> 0, 4);
      if (zip64) {
        descriptor.writeBigUInt64LE(BigInt(compressed), 8);
        descriptor.writeBigUInt64LE(BigInt(size), 16);
      } else {
        descriptor.writeUInt32LE(compressed, 8);
        descriptor.writeUInt32LE(size, 12);
      }
      this.written.push({
        name: nameBytes,
        offset,
        crc: crc >>> 0,
        compressed,
        size,
        time: this.time,
        date: this.date,
      });
      await this.put(descriptor);
    };
    return { write, end };
  }

  /** The central directory, then its end (with the ZIP64 end records when past a zip's 32-bit limits). */
  async end(): Promise<void> {
    const start = this.offset;
    const headers: Buffer[] = [];
    for (const entry of this.written) {
      const zip64 = this.zip64(entry);
      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE(zip64 ? 45 : 20, 4); // made by: MS-DOS, the spec's version
      header.writeUInt16LE(zip64 ? 45 : 20, 6); // needed: 4.5 for ZIP64, else 2.0
      header.writeUInt16LE(FLAG_DESCRIPTOR, 8);
      header.writeUInt16LE(METHOD_DEFLATE, 10);
      header.writeUInt16LE(entry.time, 12);
      header.writeUInt16LE(entry.date, 14);
      header.writeUInt32LE(entry.crc, 16);
      header.writeUInt32LE(zip64 ? UINT32_MAX : entry.compressed, 20);
      header.writeUInt32LE(zip64 ? UINT32_MAX : entry.size, 24);
      header.writeUInt16LE(entry.name.length, 28);
      header.writeUInt16LE(zip64 ? 28 : 0, 30); // extra field length
      // Comment length, disk number, internal and external attributes: 0.
      header.writeUInt32LE(zip64 ? UINT32_MAX : entry.offset, 42);
      headers.push(header, entry.name);
      if (zip64) {
        const extra = Buffer.alloc(28);
        extra.writeUInt16LE(0x0001, 0);
        extra.writeUInt16LE(24, 2);
        extra.writeBigUInt64LE(BigInt(entry.size), 4);
        extra.writeBigUInt64LE(BigInt(entry.compressed), 12);
        extra.writeBigUInt64LE(BigInt(entry.offset), 20);
        headers.push(extra);
      }
    }
    const directory = Buffer.concat(headers);
    await this.put(directory);
    const count = this.written.length;
    const zip64 = this.forceZip64 || count >= UINT16_MAX || directory.length >= UINT32_MAX || start >= UINT32_MAX;
    if (zip64) {
      const recordAt = this.offset;
      const record = Buffer.alloc(56 + 20);
      record.writeUInt32LE(0x06064b50, 0);
      record.writeBigUInt64LE(44n, 4); // the record's size after this field
      record.writeUInt16LE(45, 12);
      record.writeUInt16LE(45, 14);
      // This disk, the directory's disk: 0.
      record.writeBigUInt64LE(BigInt(count), 24);
      record.writeBigUInt64LE(BigInt(count), 32);
      record.writeBigUInt64LE(BigInt(directory.length), 40);
      record.writeBigUInt64LE(BigInt(start), 48);
      // The locator.
      record.writeUInt32LE(0x07064b50, 56);
      record.writeBigUInt64LE(BigInt(recordAt), 64);
      record.writeUInt32LE(1, 72);
      await this.put(record);
    }
    const last = Buffer.alloc(22);
    last.writeUInt32LE(0x06054b50, 0);
    last.writeUInt16LE(zip64 ? UINT16_MAX : count, 8);
    last.writeUInt16LE(zip64 ? UINT16_MAX : count, 10);
    last.writeUInt32LE(zip64 ? UINT32_MAX : directory.length, 12);
    last.writeUInt32LE(zip64 ? UINT32_MAX : start, 16);
    await this.put(last);
    if (!this.out.destroyed) this.out.end();
  }
}

/** Resolves when `stream` can take more, or `out` is gone (a destroyed output never drains). */
function drainedOrGone(stream: Writable, out: Writable): Promise<void> {
  if (out.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      out.off('close', done);
      resolve();
    };
    stream.once('drain', done);
    out.once('close', done);
  });
}
