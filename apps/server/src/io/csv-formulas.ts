import type { Cell } from '@data-platform/shared/fields/field-types';

/**
 * A spreadsheet program opening a CSV runs a cell that starts with `=`, `+`,
 * `-` or `@` (also after spaces, and their full-width forms) as a formula,
 * and a leading tab or carriage return can hide one: `=HYPERLINK(...)` or
 * `+cmd|...` typed into a record would run on the computer of whoever opens
 * the export. OWASP's advice: such text starts with a `'`, which shows it as
 * text. Only text cells: a number is never a formula, and -5 stays -5.
 *
 * The escape must come off again when our own file is imported, or an export
 * imported again would change every such text (`=SUM(A1)` into `'=SUM(A1)`,
 * a phone `+1 555 0100` into one that is no phone). So the two are each
 * other's inverse: the export adds one `'` to a formula and to a formula
 * behind `'`s (text that already reads like the escape: `'=x` is written
 * `''=x`), and a CSV cell read for an import loses one `'` when a formula
 * follows its `'`s. Any other text, a `'` in front or not, is kept as it is.
 * `export-sql.ts` writes the same test in PostgreSQL's regular expressions.
 */
const FORMULA = String.raw`(?:[\t\r]|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])`;
const formulaOrEscaped = new RegExp(`^'*${FORMULA}`);
const escaped = new RegExp(`^'+${FORMULA}`);

/** A cell as a CSV export writes it. */
export function csvSafe(cell: Cell): Cell {
  return typeof cell === 'string' && formulaOrEscaped.test(cell) ? `'${cell}` : cell;
}

/** A CSV cell's text as it was before `csvSafe` wrote it. */
export function csvUnescaped(text: string): string {
  return text.charCodeAt(0) === 39 && escaped.test(text) ? text.slice(1) : text;
}
