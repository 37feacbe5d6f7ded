import type { Cell } from '@data-platform/shared/fields/field-types';
import { cellXml, XLSX_CELL_CHARS } from './xlsx-writer.ts';

/**
 * The sheet rows of an XLSX export made straight from the bytes of
 * PostgreSQL's `COPY ... TO STDOUT` (text format: a line a row, tabs between
 * fields, `\N` for null, a backslash before each newline, tab, carriage
 * return and backslash in a value, as `\n`, `\t`, `\r`, `\\`; `\b`, `\f`,
 * `\v` for those controls; never octal or hex).
 *
 * Each field's bytes are copied into the row's XML (`&`, `<`, `>` and `"`
 * escaped on the way), with no JavaScript string made of them: parsing the
 * lines into strings and building the XML as strings was most of an XLSX
 * export's time (about 4 s of 5 s for 1,000,000 companies of 9 columns) and
 * garbage. The XML is byte for byte what `pageXml` (xlsx-writer.ts) writes
 * for the same cells typed as the export types them, with one exception: a
 * number is written as PostgreSQL wrote it (`1.50`, `12345678901234567890`)
 * rather than as JavaScript prints the double it reads as (`1.5`,
 * `12345678901234567000`); a spreadsheet reads the same number from both.
 * A field that holds a backslash escape, a control character, U+FFFE or
 * U+FFFF, a number in another form (`NaN`, `Infinity`) or text that may be
 * longer than a cell holds takes the string path: decoded, typed, written by
 * `cellXml`.
 */

/** What an export's column holds (ExportColumn's kind). */
export type CellKind = 'text' | 'number' | 'boolean';

/**
 * XML made before it is handed on: a page of about this many bytes, each compressed on its own
 * (xlsx-writer.ts's deflatePage). 1 MB pages exported faster than 256 KB ones, and the file is 0.3 % larger than as
 * one deflate stream (0.7 % with 256 KB pages).
 */
const PAGE_BYTES = 1024 * 1024;
/** Digits a number field may have to be copied as it is (beyond, the string path: a double's range). */
const MAX_NUMBER_BYTES = 20;

const TAB = 9;
const LF = 10;
const BACKSLASH = 0x5c;
/**
 * A constant part of the XML, as the little-endian 32-bit words that write it (its last word padded:
 * what is written past its length is written over next). Words were faster than bytes: a cell's tags
 * are most of its XML (200,000 companies' 24 columns in 0.34 s against 0.47 s).
 */
interface Part {
  length: number;
  words: Uint32Array;
}
function ascii(text: string): Part {
  const padded = Buffer.alloc(Math.ceil(text.length / 4) * 4);
  padded.write(text, 'latin1');
  const words = new Uint32Array(padded.length / 4);
  for (let i = 0; i < words.length; i++) words[i] = padded.readUInt32LE(i * 4);
  return { length: text.length, words };
}
const ROW_OPEN = ascii('<row r="');
const ROW_OPENED = ascii('">');
const ROW_CLOSE = ascii('</row>');
const NUMBER_OPENED = ascii('"><v>');
const BOOLEAN_OPENED = ascii('" t="b"><v>');
const VALUE_CLOSE = ascii('</v></c>');
const TEXT_OPENED = ascii('" t="inlineStr"><is><t>');
const TEXT_OPENED_SPACED = ascii('" t="inlineStr"><is><t xml:space="preserve">');
const TEXT_CLOSE = ascii('</t></is></c>');
const AMP = ascii('&amp;');
const LT = ascii('&lt;');
const GT = ascii('&gt;');
const QUOT = ascii('&quot;');
/** The most bytes a field's XML adds to its own bytes (an open tag, the row's number, a close tag). */
const CELL_OVERHEAD = 128;

/** `COPY`'s text format escapes, as it writes them. */
const copyEscapes: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** A field of `COPY`'s text format as text: `\N` is null, a backslash escapes the character after it. */
export function copyField(field: string): string | null {
  if (field === '\\N') return null;
  return field.includes('\\') ? field.replace(/\\(.)/gs, (_, c: string) => copyEscapes[c] ?? c) : field;
}

/**
 * Turns `COPY` text-format bytes, as they come in chunks, into sheet rows
 * numbered from 2 (the heading is row 1). `push` each chunk, `take` the XML
 * made so far; `end` once the copy is over.
 */
export class CopyRowsXml {
  /** Rows made. */
  rows = 0;
  private carry: Buffer | undefined;
  private out = Buffer.allocUnsafe(PAGE_BYTES * 2);
  private view = viewOf(this.out);
  private at = 0;
  /** The chunk being read, as words. */
  private source = viewOf(Buffer.alloc(0));
  /** The current row's number as ASCII digits (its first `numberLength` bytes). */
  private readonly number = new Uint8Array(16);
  private readonly numberView = viewOf(this.number);
  private numberLength = 1;
  private readonly refs: Part[];

  constructor(
    private readonly kinds: readonly CellKind[],
    private readonly letters: readonly string[],
    /** The first row's number: 2, under the heading. */
    first = 2,
  ) {
    if (kinds.length === 0 || kinds.length !== letters.length) throw new Error('A sheet needs its columns');
    if (!Number.isSafeInteger(first) || first < 1 || first > 1e11) throw new Error(`No row ${first}`);
    this.refs = letters.map((letters) => ascii(`<c r="${letters}`));
    // The number before the first: each line counts on from it.
    const before = String(first - 1);
    this.number.set(Buffer.from(before, 'latin1'));
    this.numberLength = before.length;
  }

  /** Whether `take` has a page's worth. */
  get full(): boolean {
    return this.at >= PAGE_BYTES;
  }

  /** The XML made since the last take (it is the caller's: nothing here writes to it again). */
  take(): Buffer {
    const page = this.out.subarray(0, this.at);
    this.out = Buffer.allocUnsafe(Math.max(PAGE_BYTES * 2, this.out.length));
    this.view = viewOf(this.out);
    this.at = 0;
    return page;
  }

  /** Throws when the copy ended inside a row. */
  end(): void {
    if (this.carry) throw new Error('COPY ended inside a row');
  }

  /** Makes the rows of the chunk's whole lines; the rest waits for the next chunk. */
  push(chunk: Buffer): void {
    const bytes = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    // Whole lines only: a row's UTF-8 never holds a newline byte but its own end.
    const last = bytes.lastIndexOf(LF);
    if (last < 0) {
      this.carry = bytes;
      return;
    }
    this.source = viewOf(bytes);
    let at = 0;
    while (at <= last) at = this.line(bytes, at);
    this.carry = last + 1 < bytes.length ? bytes.subarray(last + 1) : undefined;
  }

  /** The row of the line at `start`; returns where the next line starts. */
  private line(bytes: Buffer, start: number): number {
    this.nextNumber();
    this.ensure(64);
    this.put(ROW_OPEN);
    this.putNumber();
    this.put(ROW_OPENED);
    const columns = this.kinds.length;
    let at = start;
    for (let column = 0; column < columns; column++) {
      const separator = column === columns - 1 ? LF : TAB;
      // Find the field's end, and whether its bytes need escaping (esc) or the string path (odd).
      let end = at;
      let esc = false;
      let odd = false;
      for (;;) {
        const b = bytes[end] as number;
        if (b < 0x3f) {
          if (b === TAB || b === LF) {
            if (b !== separator) throw new Error(`A COPY row of ${b === LF ? 'fewer' : 'more'} fields than columns`);
            break;
          }
          if (b < 0x20) odd = true;
          else if (b === 0x26 || b === 0x3c || b === 0x3e || b === 0x22) esc = true;
        } else if (b === BACKSLASH || b === 0x7f) odd = true;
        // U+FFFE and U+FFFF (EF BF BE, EF BF BF): not XML characters.
        else if (b === 0xef && bytes[end + 1] === 0xbf && (bytes[end + 2] as number) >= 0xbe) odd = true;
        end++;
      }
      this.field(bytes, at, end, column, esc, odd);
      at = end + 1;
    }
    this.ensure(16);
    this.put(ROW_CLOSE);
    this.rows++;
    return at;
  }

  private field(bytes: Buffer, start: number, end: number, column: number, esc: boolean, odd: boolean): void {
    const length = end - start;
    // `\N`: null, no cell.
    if (length === 2 && bytes[start] === BACKSLASH && bytes[start + 1] === 0x4e) return;
    const kind = this.kinds[column];
    if (kind === 'text') {
      // Empty text: no cell. A UTF-16 text is never longer than its UTF-8: short bytes need no cut.
      if (length === 0) return;
      if (odd || length > XLSX_CELL_CHARS) {
        this.slow(bytes, start, end, column);
        return;
      }
      this.ensure(CELL_OVERHEAD + length * 6);
      this.put(this.refs[column] as Part);
      this.putNumber();
      this.put(bytes[start] === 0x20 || bytes[end - 1] === 0x20 ? TEXT_OPENED_SPACED : TEXT_OPENED);
      if (esc) this.putEscaped(bytes, start, end);
      else this.putBytes(bytes, start, end);
      this.put(TEXT_CLOSE);
      return;
    }
    if (kind === 'boolean') {
      this.ensure(CELL_OVERHEAD);
      this.put(this.refs[column] as Part);
      this.putNumber();
      this.put(BOOLEAN_OPENED);
      const isTrue =
        length === 4 &&
        bytes[start] === 0x74 &&
        bytes[start + 1] === 0x72 &&
        bytes[start + 2] === 0x75 &&
        bytes[start + 3] === 0x65;
      this.out[this.at++] = isTrue ? 0x31 : 0x30;
      this.put(VALUE_CLOSE);
      return;
    }
    if (odd || esc || !plainNumber(bytes, start, end)) {
      this.slow(bytes, start, end, column);
      return;
    }
    this.ensure(CELL_OVERHEAD + length);
    this.put(this.refs[column] as Part);
    this.putNumber();
    this.put(NUMBER_OPENED);
    this.putBytes(bytes, start, end);
    this.put(VALUE_CLOSE);
  }

  /** The string path: the field decoded, typed as the export types it, written by cellXml. */
  private slow(bytes: Buffer, start: number, end: number, column: number): void {
    const text = copyField(bytes.toString('utf8', start, end));
    if (text === null) return;
    const kind = this.kinds[column];
    const cell: Cell = kind === 'number' ? Number(text) : kind === 'boolean' ? text === 'true' : text;
    const xml = cellXml(cell, `${this.letters[column]}${this.numberText()}`, '');
    this.ensure(xml.length * 3);
    this.at += this.out.write(xml, this.at, 'utf8');
  }

  /** Room for `bytes` more in the output. */
  private ensure(bytes: number): void {
    if (this.at + bytes <= this.out.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.out.length * 2, this.at + bytes));
    this.out.copy(grown, 0, 0, this.at);
    this.out = grown;
    this.view = viewOf(grown);
  }

  private put(part: Part): void {
    const view = this.view;
    const words = part.words;
    let at = this.at;
    for (let i = 0; i < words.length; i++, at += 4) view.setUint32(at, words[i] as number, true);
    this.at += part.length;
  }

  /** The bytes as they are, a word at a time where the chunk has the bytes to read past the end. */
  private putBytes(bytes: Buffer, start: number, end: number): void {
    const length = end - start;
    if (length > 64) {
      this.at += bytes.copy(this.out, this.at, start, end);
      return;
    }
    if (end + 3 < bytes.length) {
      const view = this.view;
      const source = this.source;
      const at = this.at - start;
      for (let i = start; i < end; i += 4) view.setUint32(at + i, source.getUint32(i, true), true);
    } else {
      const out = this.out;
      let at = this.at;
      for (let i = start; i < end; i++) out[at++] = bytes[i] as number;
    }
    this.at += length;
  }

  private putEscaped(bytes: Buffer, start: number, end: number): void {
    for (let i = start; i < end; i++) {
      const b = bytes[i] as number;
      if (b === 0x26) this.put(AMP);
      else if (b === 0x3c) this.put(LT);
      else if (b === 0x3e) this.put(GT);
      else if (b === 0x22) this.put(QUOT);
      else this.out[this.at++] = b;
    }
  }

  private putNumber(): void {
    const view = this.view;
    const digits = this.numberView;
    const at = this.at;
    view.setUint32(at, digits.getUint32(0, true), true);
    view.setUint32(at + 4, digits.getUint32(4, true), true);
    if (this.numberLength > 8) view.setUint32(at + 8, digits.getUint32(8, true), true);
    this.at += this.numberLength;
  }

  private numberText(): string {
    return Buffer.from(this.number.subarray(0, this.numberLength)).toString('latin1');
  }

  /** The row number plus one, in its ASCII digits. */
  private nextNumber(): void {
    const digits = this.number;
    for (let i = this.numberLength - 1; i >= 0; i--) {
      if (digits[i] !== 0x39) {
        digits[i] = (digits[i] as number) + 1;
        return;
      }
      digits[i] = 0x30;
    }
    digits.copyWithin(1, 0, this.numberLength);
    digits[0] = 0x31;
    this.numberLength++;
  }
}

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Whether a number field's bytes are a plain decimal (`-12.5`) short enough to be a double as written. */
function plainNumber(bytes: Buffer, start: number, end: number): boolean {
  const length = end - start;
  if (length === 0 || length > MAX_NUMBER_BYTES) return false;
  let at = bytes[start] === 0x2d ? start + 1 : start;
  if (at === end) return false;
  let dot = false;
  let digits = 0;
  for (; at < end; at++) {
    const b = bytes[at] as number;
    if (b >= 0x30 && b <= 0x39) digits++;
    else if (b === 0x2e && !dot && digits > 0) dot = true;
    else return false;
  }
  return bytes[end - 1] !== 0x2e;
}
