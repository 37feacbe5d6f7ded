import path from 'node:path';
import { createInflateRaw } from 'node:zlib';
import {
  type Cell,
  checkCellLength,
  checkRow,
  checkRowCount,
  type TableRow,
  tableLimits,
  UnreadableTable,
  yieldToOthers,
} from './table.ts';
import { type XmlHandlers, XmlRefused, XmlTokenizer } from './xml-tokens.ts';

/**
 * A bounded reader of an XLSX workbook's sheets. An XLSX file is a zip
 * of XML parts, and a few megabytes of zip can inflate to gigabytes of XML:
 * this reader opens only the parts it needs, inflates them as a stream while
 * counting the bytes it actually gets (declared sizes can lie), and parses
 * the XML a chunk at a time, so that nothing is held whole and other
 * requests run between chunks. Every limit is checked as the bytes arrive.
 */

/** What reading one workbook may take; each bound is checked as the bytes arrive. */
export interface XlsxLimits {
  /** Entries the zip may list. */
  entries: number;
  /** Bytes the parts read may inflate to, together. */
  inflatedBytes: number;
  /** How many times its stored size a part may inflate to, once past `ratioGraceBytes`. */
  inflateRatio: number;
  ratioGraceBytes: number;
  /** Strings the shared table may hold, and their characters together (all held until the sheet is read). */
  sharedStrings: number;
  sharedChars: number;
  /** Cell formats a workbook may define. */
  styles: number;
}

export const xlsxLimits: XlsxLimits = {
  // A workbook has tens (sheets, styles, theme, properties).
  entries: 1_000,
  // The largest import (10,000 rows) of a hundred filled columns is about 55 MB of sheet XML as exceljs
  // writes it (53 bytes a cell, measured on an export); parsing 64 MB takes seconds, shared with other requests.
  inflatedBytes: 64 * 1024 * 1024,
  // Spreadsheet XML deflates about 10 to 1; a bomb 1,000 to 1. Apache POI refuses parts over 100 to 1
  // (ZipSecureFile's minimum inflate ratio, 0.01); past 10 MB so that no small part is ever refused for it.
  inflateRatio: 100,
  ratioGraceBytes: 10 * 1024 * 1024,
  // One for every cell of 10,000 rows of 100 columns; 50 million characters are 50 to 100 MB held.
  sharedStrings: 1_000_000,
  sharedChars: 50_000_000,
  // Excel's own limit.
  styles: 64_000,
};

/** The longest piece of XML (a text, a tag with its attributes) held while it is read: a cell at its limit, escaped. */
const MAX_TOKEN_CHARS = 10 * tableLimits.cellChars;
/** Inflated bytes handed to the XML parser at a time. */
const CHUNK_BYTES = 64 * 1024;

const notWorkbook = () => new UnreadableTable('This is not an Excel workbook (XLSX)');

interface Entry {
  method: number;
  compressedSize: number;
  localOffset: number;
}

/** The zip's entries by name, from its central directory; refuses what an XLSX never is. */
function centralDirectory(bytes: Buffer, limits: XlsxLimits): Map<string, Entry> {
  // The end record is 22 bytes plus a comment of at most 65,535, at the very end.
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (bytes.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw notWorkbook();
  const count = bytes.readUInt16LE(end + 10);
  const size = bytes.readUInt32LE(end + 12);
  const offset = bytes.readUInt32LE(end + 16);
  // Zip64 marks its counts and offsets with all ones; a workbook that needs it is far over the upload limit.
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) throw notWorkbook();
  if (count > limits.entries) {
    throw new UnreadableTable(
      `This file's zip lists ${count.toLocaleString('en')} entries; an Excel workbook has tens (at most ${limits.entries.toLocaleString('en')} are read)`,
    );
  }
  if (offset + size > end) throw notWorkbook();
  const entries = new Map<string, Entry>();
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || bytes.readUInt32LE(at) !== 0x02014b50) throw notWorkbook();
    const flags = bytes.readUInt16LE(at + 8);
    const nameLength = bytes.readUInt16LE(at + 28);
    const next = at + 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    if (next > end) throw notWorkbook();
    if (flags & 1) {
      throw new UnreadableTable('This workbook is encrypted; save it without a password and import it again');
    }
    entries.set(bytes.toString('utf8', at + 46, at + 46 + nameLength), {
      method: bytes.readUInt16LE(at + 10),
      compressedSize: bytes.readUInt32LE(at + 20),
      localOffset: bytes.readUInt32LE(at + 42),
    });
    at = next;
  }
  return entries;
}

/** The stored (deflated) bytes of an entry, found through its local header. */
function storedBytes(bytes: Buffer, entry: Entry): Buffer {
  const at = entry.localOffset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== 0x04034b50) throw notWorkbook();
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw notWorkbook();
  return bytes.subarray(start, end);
}

/**
 * An entry's bytes as they inflate, a chunk at a time (zip methods 0, stored,
 * and 8, deflated; Excel uses no other), refused when they grow past the
 * inflate ratio: counted on the bytes the inflater has actually consumed.
 */
async function* entryChunks(bytes: Buffer, entry: Entry, limits: XlsxLimits): AsyncGenerator<Buffer> {
  const stored = storedBytes(bytes, entry);
  if (entry.method === 0) {
    for (let i = 0; i < stored.length; i += CHUNK_BYTES) yield stored.subarray(i, i + CHUNK_BYTES);
    return;
  }
  if (entry.method !== 8) throw notWorkbook();
  // A stream, so that the output is made as it is read: a bomb inflates only as far as a limit.
  const inflater = createInflateRaw({ chunkSize: CHUNK_BYTES });
  inflater.end(stored);
  let inflated = 0;
  try {
    for await (const chunk of inflater) {
      inflated += (chunk as Buffer).length;
      if (inflated > limits.ratioGraceBytes && inflated > limits.inflateRatio * inflater.bytesWritten) {
        throw new UnreadableTable(
          `This workbook unzips to more than ${limits.inflateRatio} times its size, which no spreadsheet does; it is refused as a zip bomb`,
          true,
        );
      }
      yield chunk as Buffer;
    }
  } catch (error) {
    if (error instanceof UnreadableTable) throw error;
    throw notWorkbook();
  } finally {
    inflater.destroy();
  }
}

/**
 * Reads the workbook's parts, inflating and parsing each as a stream, and
 * counts what they inflate to against one budget for the whole file.
 */
class PartReader {
  private readonly entries: Map<string, Entry>;
  private inflated = 0;

  constructor(
    private readonly bytes: Buffer,
    readonly limits: XlsxLimits,
  ) {
    this.entries = centralDirectory(bytes, limits);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /**
   * Parses a part, calling the handlers as elements come; after each chunk
   * it yields (the handlers may have gathered something to hand on) and so
   * lets other requests run.
   */
  async *parse(name: string, handlers: XmlHandlers): AsyncGenerator<void> {
    const entry = this.entries.get(name);
    if (!entry) throw notWorkbook();
    const tokens = new XmlTokenizer(handlers, MAX_TOKEN_CHARS);
    const decoder = new TextDecoder('utf-8', { fatal: true });
    try {
      for await (const chunk of entryChunks(this.bytes, entry, this.limits)) {
        this.inflated += chunk.length;
        if (this.inflated > this.limits.inflatedBytes) {
          throw new UnreadableTable(
            `This workbook holds more than ${this.limits.inflatedBytes / 1024 / 1024} MB of data once unzipped; import its rows in smaller files`,
            true,
          );
        }
        tokens.write(decoder.decode(chunk, { stream: true }));
        yield;
        await yieldToOthers();
      }
      tokens.write(decoder.decode());
      tokens.close();
      yield;
    } catch (error) {
      if (error instanceof UnreadableTable) throw error;
      if (error instanceof XmlRefused && error.code === 'tokenTooLong') throw notWorkbookText(name);
      throw notWorkbook();
    }
  }

  /** Parses a part to its end (a part that hands nothing on). */
  async read(name: string, handlers: XmlHandlers): Promise<void> {
    const steps = this.parse(name, handlers);
    while (!(await steps.next()).done) {
      // Each step parses a chunk; there is nothing to hand on between them.
    }
  }
}

const notWorkbookText = (name: string) =>
  new UnreadableTable(
    `This workbook's ${path.posix.basename(name)} holds a text longer than ${tableLimits.cellChars.toLocaleString('en')} characters`,
  );

/** A relationship's target as a part name: relative to the part that names it, or absolute. */
function partName(from: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  return path.posix.normalize(path.posix.join(path.posix.dirname(from), target));
}

/** The relationships of a part, by id: `xl/workbook.xml` has them in `xl/_rels/workbook.xml.rels`. */
async function relationships(parts: PartReader, of: string): Promise<Map<string, { type: string; target: string }>> {
  const name = path.posix.join(path.posix.dirname(of), '_rels', `${path.posix.basename(of)}.rels`);
  const found = new Map<string, { type: string; target: string }>();
  if (!parts.has(name)) return found;
  await parts.read(name, {
    open(element, a) {
      if (element === 'Relationship' && a.Id && a.Target && a.TargetMode !== 'External') {
        if (found.size >= parts.limits.entries) throw notWorkbook();
        found.set(a.Id, { type: a.Type ?? '', target: partName(of, a.Target) });
      }
    },
  });
  return found;
}

const isType = (type: string, kind: string) => type.endsWith(`/${kind}`);

/** The built-in number formats that show dates or times (ECMA-376 18.8.30). */
const builtInDateFormats = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/** A format code shows a date or a time when, outside quotes and brackets, it has a date or time letter. */
function isDateFormat(code: string): boolean {
  return /[ymdhMsb]/.test(code.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));
}

/** Which cell styles (by index, the `s` of a cell) show a number as a date. */
async function dateStyles(parts: PartReader, name: string | undefined): Promise<boolean[]> {
  if (!name || !parts.has(name)) return [];
  const customDates = new Set<number>();
  const styles: boolean[] = [];
  let inCellXfs = false;
  await parts.read(name, {
    open(element, a) {
      if (element === 'numFmt' && isDateFormat(a.formatCode ?? '')) customDates.add(Number(a.numFmtId));
      else if (element === 'cellXfs') inCellXfs = true;
      else if (element === 'xf' && inCellXfs) {
        if (styles.length >= parts.limits.styles) throw notWorkbook();
        const id = Number(a.numFmtId ?? 0);
        styles.push(builtInDateFormats.has(id) || customDates.has(id));
      }
    },
    close(element) {
      if (element === 'cellXfs') inCellXfs = false;
    },
  });
  return styles;
}

/** The shared strings table; rich text as its runs' text, without phonetic guides. */
async function sharedStrings(parts: PartReader, name: string | undefined): Promise<string[]> {
  if (!name || !parts.has(name)) return [];
  const strings: string[] = [];
  let chars = 0;
  let current: string | undefined;
  let inText = false;
  let inPhonetic = false;
  await parts.read(name, {
    open(element) {
      if (element === 'si') {
        if (strings.length >= parts.limits.sharedStrings) {
          throw new UnreadableTable(
            `This workbook has more than ${parts.limits.sharedStrings.toLocaleString('en')} distinct texts; import its rows in smaller files`,
            true,
          );
        }
        current = '';
      } else if (element === 'rPh') inPhonetic = true;
      else if (element === 't') inText = !inPhonetic;
    },
    close(element) {
      if (element === 'si' && current !== undefined) {
        strings.push(current);
        current = undefined;
      } else if (element === 'rPh') inPhonetic = false;
      else if (element === 't') inText = false;
    },
    text(text) {
      if (current === undefined || !inText) return;
      chars += text.length;
      if (chars > parts.limits.sharedChars) {
        throw new UnreadableTable(
          `This workbook's texts hold more than ${parts.limits.sharedChars.toLocaleString('en')} characters; import its rows in smaller files`,
          true,
        );
      }
      current += text;
      // A shared string that long could only fill a cell over the limit.
      if (current.length > tableLimits.cellChars) throw notWorkbookText(name);
    },
  });
  return strings;
}

/** `BC12` → 54 (columns from 1); 0 when the reference has no letters. */
function columnOf(reference: string): number {
  let column = 0;
  for (const char of reference) {
    const code = char.charCodeAt(0);
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
    if (column > 16_384) break;
  }
  return column;
}

/** Excel's day numbers: day 25,569 is 1970-01-01 (in the 1904 system, 1,462 days later). */
function dateOf(days: number, date1904: boolean): string | null {
  const time = Math.round((days - 25569 + (date1904 ? 1462 : 0)) * 86_400_000);
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10);
}

interface Sheet {
  name: string;
  date1904: boolean;
  dateStyles: boolean[];
  strings: string[];
}

/** The workbook part and the names of its sheets, in the workbook's order. */
async function workbookSheets(
  parts: PartReader,
): Promise<{ workbook: string; date1904: boolean; sheets: { name: string; id: string }[] }> {
  const root = await relationships(parts, '');
  const office = [...root.values()].find((r) => isType(r.type, 'officeDocument'));
  const workbook = office?.target ?? 'xl/workbook.xml';
  if (!parts.has(workbook)) throw notWorkbook();
  const sheets: { name: string; id: string }[] = [];
  let date1904 = false;
  await parts.read(workbook, {
    open(element, a) {
      if (element === 'workbookPr') date1904 = a.date1904 === '1' || a.date1904 === 'true';
      if (element === 'sheet' && a.id) {
        if (sheets.length >= parts.limits.entries) throw notWorkbook();
        sheets.push({ name: a.name ?? `Sheet${sheets.length + 1}`, id: a.id });
      }
    },
  });
  return { workbook, date1904, sheets };
}

/** The sheet named `name` of the workbook (the first without a name), with what reading its cells needs. */
async function sheetOf(parts: PartReader, name?: string): Promise<Sheet> {
  const { workbook, date1904, sheets } = await workbookSheets(parts);
  const chosen = name === undefined ? sheets[0] : sheets.find((s) => s.name === name);
  if (!chosen) {
    if (name !== undefined) throw new UnreadableTable(`This workbook has no sheet named ${name}`);
    throw notWorkbook();
  }
  const related = await relationships(parts, workbook);
  const sheet = related.get(chosen.id)?.target;
  if (!sheet || !parts.has(sheet)) throw notWorkbook();
  const targetOf = (kind: string) => [...related.values()].find((r) => isType(r.type, kind))?.target;
  return {
    name: sheet,
    date1904,
    dateStyles: await dateStyles(parts, targetOf('styles')),
    strings: await sharedStrings(parts, targetOf('sharedStrings')),
  };
}

/** The names of the workbook's sheets, in its order (nothing but the workbook part is parsed). */
export async function xlsxSheetNames(bytes: Buffer, limits: XlsxLimits = xlsxLimits): Promise<string[]> {
  const parts = new PartReader(bytes, limits);
  return (await workbookSheets(parts)).sheets.map((s) => s.name);
}

export interface XlsxReadOptions {
  /** The sheet to read, by name; the first by default. */
  sheet?: string;
  /** Rows read at most, blank ones too (`tableLimits.rows` by default). */
  maxRows?: number;
}

/**
 * The rows of a sheet of the workbook (the first by default) as cells: numbers, booleans, text
 * (shared, inline or a formula's result, rich text as its text) and numbers
 * with a date format as `YYYY-MM-DD`; errors and empty cells are null. Rows
 * without values are left out; each row says its number.
 */
export async function* readXlsx(
  bytes: Buffer,
  limits: XlsxLimits = xlsxLimits,
  { sheet: sheetName, maxRows = tableLimits.rows }: XlsxReadOptions = {},
): AsyncGenerator<TableRow> {
  const parts = new PartReader(bytes, limits);
  const sheet = await sheetOf(parts, sheetName);
  const ready: TableRow[] = [];
  let rowsRead = 0;
  let rowNumber = 0;
  let cells: Cell[] = [];
  let column = 0;
  let type = 'n';
  let isDate = false;
  let text: string | undefined;
  let inValue = false;
  const cellOf = (raw: string): Cell => {
    switch (type) {
      case 's': {
        const shared = sheet.strings[Number(raw)];
        if (shared === undefined) throw notWorkbook();
        return shared;
      }
      case 'inlineStr':
      case 'str':
        return raw;
      case 'b':
        return raw.trim() === '1' || raw.trim() === 'true';
      case 'e':
        return null;
      case 'd':
        return raw.slice(0, 10);
      default: {
        const number = Number(raw);
        if (raw.trim() === '' || !Number.isFinite(number)) return raw;
        return isDate ? dateOf(number, sheet.date1904) : number;
      }
    }
  };
  const handlers: XmlHandlers = {
    open(element, a) {
      if (element === 'row') {
        rowsRead += 1;
        checkRowCount(rowsRead, maxRows);
        rowNumber = a.r ? Number(a.r) : rowNumber + 1;
        if (!Number.isInteger(rowNumber) || rowNumber < 1) throw notWorkbook();
        cells = [];
        column = 0;
      } else if (element === 'c') {
        column = a.r ? columnOf(a.r) : column + 1;
        if (column < 1) throw notWorkbook();
        type = a.t ?? 'n';
        isDate = sheet.dateStyles[Number(a.s ?? 0)] ?? false;
        text = undefined;
      } else if (element === 'v' || (element === 't' && type === 'inlineStr')) {
        inValue = true;
        text ??= '';
      }
    },
    text(piece) {
      if (!inValue || text === undefined) return;
      text += piece;
      checkCellLength(text.length, rowNumber, column - 1);
    },
    close(element) {
      if (element === 'v' || element === 't') inValue = false;
      else if (element === 'c' && text !== undefined) {
        const value = cellOf(text);
        if (value === null) return;
        if (column > tableLimits.columns) {
          throw new UnreadableTable(
            `Row ${rowNumber} has more than ${tableLimits.columns.toLocaleString('en')} columns`,
          );
        }
        while (cells.length < column - 1) cells.push(null);
        cells[column - 1] = value;
      } else if (element === 'row' && cells.length > 0) {
        ready.push(checkRow({ number: rowNumber, cells }));
      }
    },
  };
  for await (const _ of parts.parse(sheet.name, handlers)) {
    yield* ready;
    ready.length = 0;
  }
}
