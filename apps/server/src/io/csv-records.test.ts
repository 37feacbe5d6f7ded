import { mulberry32 } from '@data-platform/shared/random';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CsvRecords, MAX_RECORD_CHARS } from './csv-records.ts';
import { tableLimits } from './table.ts';

/** The records of `text` given in `chunks` pieces, or the error's name. */
function ours(text: string, delimiter: string, cuts: number[]): string[][] | 'error' {
  const records = new CsvRecords(delimiter);
  const out: string[][] = [];
  try {
    let at = 0;
    for (const cut of cuts) {
      out.push(...records.push(text.slice(at, cut)));
      at = cut;
    }
    out.push(...records.push(text.slice(at)));
    out.push(...records.push('', true));
    return out;
  } catch {
    return 'error';
  }
}

function reference(text: string, delimiter: string): string[][] | 'error' {
  try {
    return parse(text, { delimiter, relax_column_count: true }) as string[][];
  } catch {
    return 'error';
  }
}

describe('CsvRecords', () => {
  it('splits as csv-parse does: 20,000 random texts of quotes, delimiters and line breaks, cut anywhere', () => {
    const alphabet = ['a', 'b', ',', ';', '"', '"', '\r', '\n', '\r\n', ' ', 'é'];
    for (let seed = 1; seed <= 20_000; seed++) {
      const next = mulberry32(seed);
      const length = Math.floor(next() * 24);
      let text = '';
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
      const delimiter = next() < 0.8 ? ',' : ';';
      const cuts = [...new Set(Array.from({ length: Math.floor(next() * 4) }, () => Math.floor(next() * text.length)))];
      cuts.sort((a, b) => a - b);
      const expected = reference(text, delimiter);
      const got = ours(text, delimiter, cuts);
      if (JSON.stringify(got) !== JSON.stringify(expected)) {
        expect({ seed, text, delimiter, cuts, got }).toEqual({ seed, text, delimiter, cuts, got: expected });
      }
    }
  });

  it('reads the forms spreadsheets write, each cut at every place', () => {
    const cases: [string, string[][]][] = [
      [
        'Name,City\r\nAcme,"Paris, ""Rive gauche"""\r\n',
        [
          ['Name', 'City'],
          ['Acme', 'Paris, "Rive gauche"'],
        ],
      ],
      ['a;b\n"line\nbreak",\n\nlast', [['a;b'], ['line\nbreak', ''], [''], ['last']]],
      ['x\ry\r', [['x'], ['y']]],
      ['', []],
      ['"",""\n', [['', '']]],
    ];
    for (const [text, records] of cases) {
      for (let cut = 0; cut <= text.length; cut++) expect(ours(text, ',', [cut])).toEqual(records);
    }
  });

  it('refuses a cell never closed and a quote inside a cell, naming the row', () => {
    const records = new CsvRecords(',');
    expect(records.push('a\nb\n')).toEqual([['a'], ['b']]);
    expect(() => records.push('c"d\n')).toThrow('This CSV cannot be read: row 3 has a quote inside a cell');
    const open = new CsvRecords(',');
    open.push('a\n"b\n');
    expect(() => open.push('', true)).toThrow('row 2 has a quoted cell that is never closed');
  });

  it('refuses a record over its limits as soon as it passes them, before it ends', () => {
    const long = new CsvRecords(',');
    long.push('Name\n"');
    const chunk = 'x'.repeat(64 * 1024);
    let thrown: unknown;
    let pushed = 0;
    try {
      for (; pushed < 100; pushed++) long.push(chunk);
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Error).message).toBe(`Row 2 is longer than ${MAX_RECORD_CHARS.toLocaleString('en')} characters`);
    expect(pushed * chunk.length).toBeLessThan(MAX_RECORD_CHARS + chunk.length);

    const wide = new CsvRecords(',');
    expect(() => wide.push(','.repeat(tableLimits.columns + 1))).toThrow(
      `Row 1 has more than ${tableLimits.columns.toLocaleString('en')} columns`,
    );
  });
});
