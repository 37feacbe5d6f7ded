import { describe, expect, it } from 'vitest';
import { movedCell } from './grid-keyboard.ts';

const bounds = { rows: 100, cols: 6, pageRows: 20 };

describe('movedCell: where a key moves the focused cell of the grid', () => {
  it('moves by one with the arrows, kept within the rows and cells', () => {
    expect(movedCell('ArrowDown', false, { row: 3, col: 2 }, bounds)).toEqual({ row: 4, col: 2 });
    expect(movedCell('ArrowUp', false, { row: 3, col: 2 }, bounds)).toEqual({ row: 2, col: 2 });
    expect(movedCell('ArrowRight', false, { row: 3, col: 2 }, bounds)).toEqual({ row: 3, col: 3 });
    expect(movedCell('ArrowLeft', false, { row: 3, col: 2 }, bounds)).toEqual({ row: 3, col: 1 });
    expect(movedCell('ArrowUp', false, { row: 0, col: 0 }, bounds)).toEqual({ row: 0, col: 0 });
    expect(movedCell('ArrowLeft', false, { row: 0, col: 0 }, bounds)).toEqual({ row: 0, col: 0 });
    expect(movedCell('ArrowDown', false, { row: 99, col: 5 }, bounds)).toEqual({ row: 99, col: 5 });
    expect(movedCell('ArrowRight', false, { row: 99, col: 5 }, bounds)).toEqual({ row: 99, col: 5 });
  });

  it('goes to the row’s ends with Home and End, the grid’s with Ctrl, by a view with Page Up and Down', () => {
    expect(movedCell('Home', false, { row: 7, col: 4 }, bounds)).toEqual({ row: 7, col: 0 });
    expect(movedCell('End', false, { row: 7, col: 1 }, bounds)).toEqual({ row: 7, col: 5 });
    expect(movedCell('Home', true, { row: 7, col: 4 }, bounds)).toEqual({ row: 0, col: 4 });
    expect(movedCell('End', true, { row: 7, col: 4 }, bounds)).toEqual({ row: 99, col: 4 });
    expect(movedCell('PageDown', false, { row: 7, col: 1 }, bounds)).toEqual({ row: 27, col: 1 });
    expect(movedCell('PageUp', false, { row: 7, col: 1 }, bounds)).toEqual({ row: 0, col: 1 });
    expect(movedCell('PageDown', false, { row: 90, col: 1 }, bounds)).toEqual({ row: 99, col: 1 });
  });

  it('leaves other keys alone', () => {
    expect(movedCell('Enter', false, { row: 1, col: 1 }, bounds)).toBeUndefined();
    expect(movedCell('a', false, { row: 1, col: 1 }, bounds)).toBeUndefined();
  });
});
