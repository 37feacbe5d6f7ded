import type { Cell } from '@data-platform/shared/fields/field-types';
import { mulberry32 as random } from '@data-platform/shared/random';
import { describe, expect, it } from 'vitest';
import { type CellKind, CopyRowsXml } from './xlsx-copy-rows.ts';
import { columnLetters, pageXml, XLSX_CELL_CHARS } from './xlsx-writer.ts';

/**
 * The sheet rows made from COPY's bytes are byte for byte the rows the
 * string writer (pageXml) makes of the same cells, typed as the export types
 * them: seeded random rows of every kind of text (escapes, controls, what XML
 * forbids, multi-byte and astral characters, text past a cell's limit),
 * numbers, booleans and nulls, cut into chunks at random bytes.
 */

const copyEscapes: Record<string, string> = {
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
  '\v': '\\v',
};

/** A value as COPY's text format writes it. */
function copyText(value: string | null): string {
  if (value === null) return '\\N';
  return value.replace(/[\\\n\r\t\b\f\v]/g, (c) => copyEscapes[c] as string);
}

const PIECES = [
  'a',
  'Nova',
  ' ',
  '  ',
  '&',
  '<',
  '>',
  '"',
  "'",
  '\\',
  '\\N',
  '\n',
  '\r',
  '\r\n',
  '\t',
  '\b',
  '\f',
  '\v',
  '\x01',
  '\x1f',
  '\x7f',
  'é',
  '€',
  '😀',
  '\ufffe',
  '\uffff',
  '\ufffd',
  '\uff01',
  '\uf8ff',
  '0',
  '-',
];

function text(next: () => number): string {
  const roll = next();
  if (roll < 0.05) return '';
  if (roll < 0.08) {
    // Near a cell's limit, in UTF-16 units, with astral characters across it.
    const base = 'x'.repeat(XLSX_CELL_CHARS - 4 + Math.floor(next() * 8));
    return next() < 0.5 ? base : `${base.slice(0, -3)}😀😀`;
  }
  let value = '';
  const pieces = 1 + Math.floor(next() * 8);
  for (let i = 0; i < pieces; i++) value += PIECES[Math.floor(next() * PIECES.length)];
  return value;
}

/** A number as PostgreSQL writes a numeric that JavaScript prints the same, or one it does not. */
function number(next: () => number): string {
  const roll = next();
  if (roll < 0.05) return ['NaN', 'Infinity', '-Infinity'][Math.floor(next() * 3)] as string;
  if (roll < 0.08) return '123456789012345678901234567890';
  if (roll < 0.4) return String(Math.floor((next() - 0.5) * 1e9));
  return String(Number(((next() - 0.3) * 10 ** Math.floor(next() * 12)).toFixed(Math.floor(next() * 6))));
}

function rowsOf(next: () => number, kinds: readonly CellKind[], count: number): (string | null)[][] {
  return Array.from({ length: count }, () =>
    kinds.map((kind) => {
      if (next() < 0.15) return null;
      if (kind === 'number') return number(next);
      if (kind === 'boolean') return next() < 0.5 ? 'true' : 'false';
      return text(next);
    }),
  );
}

/** What the string path makes of the rows (export.ts types COPY's text cells so). */
function expected(rows: (string | null)[][], kinds: readonly CellKind[], first = 2): Buffer {
  const typed = rows.map((row) =>
    row.map((value, i): Cell => {
      if (value === null) return null;
      if (kinds[i] === 'number') return Number(value);
      if (kinds[i] === 'boolean') return value === 'true';
      return value;
    }),
  );
  return pageXml(
    typed,
    first - 1,
    kinds.map((_, i) => columnLetters(i)),
  );
}

/** The rows as COPY's bytes, pushed in chunks cut at random bytes. */
function made(
  rows: (string | null)[][],
  kinds: readonly CellKind[],
  next: () => number,
  first?: number,
): { xml: Buffer; rows: number } {
  const bytes = Buffer.from(rows.map((row) => `${row.map(copyText).join('\t')}\n`).join(''), 'utf8');
  const maker = new CopyRowsXml(
    kinds,
    kinds.map((_, i) => columnLetters(i)),
    first,
  );
  const pages: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = next() < 0.2 ? 1 + Math.floor(next() * 8) : 1 + Math.floor(next() * 70_000);
    maker.push(bytes.subarray(at, at + size));
    at += size;
    if (maker.full || next() < 0.3) pages.push(maker.take());
  }
  maker.end();
  pages.push(maker.take());
  return { xml: Buffer.concat(pages), rows: maker.rows };
}

describe('CopyRowsXml', () => {
  it('makes the string path’s rows, byte for byte, from COPY’s text in any chunks', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = random(seed);
      const kinds = Array.from(
        { length: 1 + Math.floor(next() * 30) },
        (): CellKind => (['text', 'text', 'number', 'boolean'] as const)[Math.floor(next() * 4)] as CellKind,
      );
      const rows = rowsOf(next, kinds, 1 + Math.floor(next() * 400));
      const result = made(rows, kinds, next);
      expect(result.rows).toBe(rows.length);
      expect(result.xml.toString('utf8'), `seed ${seed}`).toBe(expected(rows, kinds).toString('utf8'));
    }
  });

  it('numbers its rows on across more digits (9, 10, 100,000,000 and 1,000,000,000)', () => {
    const kinds: CellKind[] = ['number', 'text'];
    for (const first of [2, 95, 99_999_990, 999_999_995]) {
      const next = random(first);
      const rows = rowsOf(next, kinds, 20);
      expect(made(rows, kinds, next, first).xml.toString('utf8')).toBe(expected(rows, kinds, first).toString('utf8'));
    }
  });

  it('writes a plain number as PostgreSQL wrote it', () => {
    const maker = new CopyRowsXml(['number', 'number'], ['A', 'B']);
    maker.push(Buffer.from('1.50\t-0\n'));
    expect(maker.take().toString()).toBe('<row r="2"><c r="A2"><v>1.50</v></c><c r="B2"><v>-0</v></c></row>');
  });

  it('refuses a row of more or fewer fields than columns, and a copy that ends inside a row', () => {
    expect(() => new CopyRowsXml(['text', 'text'], ['A', 'B']).push(Buffer.from('a\n'))).toThrow(/fewer fields/);
    expect(() => new CopyRowsXml(['text'], ['A']).push(Buffer.from('a\tb\n'))).toThrow(/more fields/);
    const maker = new CopyRowsXml(['text'], ['A']);
    maker.push(Buffer.from('a\nb'));
    expect(() => maker.end()).toThrow(/inside a row/);
  });
});
