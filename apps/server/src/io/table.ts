/** What the import readers (CSV, XLSX) give: rows of cells, read under limits checked as they are read. */

export type Cell = string | number | boolean | null;

export interface TableRow {
  /** The row's number as a spreadsheet shows it (the first row is 1; blank rows count). */
  number: number;
  cells: Cell[];
}

/**
 * Bounds on what a reader holds or spends on one file; each is checked while
 * the file is read, so a file over any of them is refused at that point, not
 * after it has been read whole.
 */
export const tableLimits = {
  /**
   * Rows read in all, blank ones too: twice the rows one import may create
   * (10,000), so a sheet with stray blank rows passes and a million empty
   * lines are refused at the 20,001st.
   */
  rows: 20_000,
  /** Columns of a row: built-in fields, 200 custom fields and money's currency columns fit well under it. */
  columns: 1_000,
  /** Characters of one cell: twice the longest text a field takes (a note, 50,000). */
  cellChars: 100_000,
} as const;

/**
 * A file the readers refuse: unreadable, or over a limit (`tooLarge` when
 * the limit is one of size, which HTTP answers with 413).
 */
export class UnreadableTable extends Error {
  constructor(
    message: string,
    readonly tooLarge = false,
  ) {
    super(message);
  }
}

/** Refuses the row read after the limit; `count` counts every row read so far, blank ones too. */
export function checkRowCount(count: number, limit: number = tableLimits.rows): void {
  if (count > limit) {
    throw new UnreadableTable(`The file has more than ${limit.toLocaleString('en')} rows (blank rows count too)`, true);
  }
}

/** Checks a row's width and its cells' lengths as a reader hands it on. */
export function checkRow(row: TableRow): TableRow {
  if (row.cells.length > tableLimits.columns) {
    throw new UnreadableTable(`Row ${row.number} has more than ${tableLimits.columns.toLocaleString('en')} columns`);
  }
  row.cells.forEach((cell, i) => {
    if (typeof cell === 'string') checkCellLength(cell.length, row.number, i);
  });
  return row;
}

/** Refuses a cell longer than the limit (also while a reader is still gathering its text). */
export function checkCellLength(length: number, rowNumber: number, columnIndex: number): void {
  if (length > tableLimits.cellChars) {
    throw new UnreadableTable(
      `The cell in row ${rowNumber}, column ${columnIndex + 1} is longer than ${tableLimits.cellChars.toLocaleString('en')} characters`,
    );
  }
}

/** Lets other requests run between pieces of a long read. */
export const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));
