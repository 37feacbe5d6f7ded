import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvSafe, csvUnescaped } from './csv-formulas.ts';

describe("the CSV export's formula escape", () => {
  it('puts a quote before a formula, and before a formula already behind quotes', () => {
    expect(csvSafe('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvSafe('+1 555 0100')).toBe("'+1 555 0100");
    expect(csvSafe('  -2')).toBe("'  -2");
    expect(csvSafe('\tx')).toBe("'\tx");
    expect(csvSafe('\uFF1Dfull width')).toBe("'\uFF1Dfull width");
    expect(csvSafe("'=x")).toBe("''=x");
    expect(csvSafe("''@x")).toBe("'''@x");
    // Anything else is written as it is: text behind a quote too, and numbers.
    expect(csvSafe("'plain")).toBe("'plain");
    expect(csvSafe('plain')).toBe('plain');
    expect(csvSafe(-5)).toBe(-5);
    expect(csvSafe(null)).toBe(null);
  });

  it('comes off when a cell is read for an import, once, and only from a formula', () => {
    expect(csvUnescaped("'=SUM(A1)")).toBe('=SUM(A1)');
    expect(csvUnescaped("''=x")).toBe("'=x");
    expect(csvUnescaped("'plain")).toBe("'plain");
    expect(csvUnescaped("'")).toBe("'");
    expect(csvUnescaped('=raw, as a spreadsheet writes it')).toBe('=raw, as a spreadsheet writes it');
  });

  it('reads back every text as it was', () => {
    const piece = fc.constantFrom("'", '=', '+', '-', '@', ' ', '\t', '\r', '\n', '\uFF20', 'a', '1', ';');
    const text = fc.oneof(
      fc.string(),
      fc.array(piece, { maxLength: 8 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(text, (value) => {
        expect(csvUnescaped(csvSafe(value) as string)).toBe(value);
      }),
      { numRuns: 2000 },
    );
  });
});
