import { type RefObject, useEffect } from 'react';

/** A cell of the grid's body: the row's index among the loaded rows, the cell's among its row's cells. */
export interface CellPosition {
  row: number;
  col: number;
}

/** How far the keys may go: the loaded rows, the cells of a row, and how many rows a page (the view) holds. */
export interface GridBounds {
  rows: number;
  cols: number;
  pageRows: number;
}

/**
 * Where a key moves the focused cell, as the ARIA grid pattern has it:
 * arrows by one, Home and End to the row's first and last cell (with Ctrl,
 * the first and last row's), Page Up and Page Down by a view of rows.
 * Undefined for any other key; the position is kept within the grid.
 */
export function movedCell(
  key: string,
  ctrl: boolean,
  at: CellPosition,
  { rows, cols, pageRows }: GridBounds,
): CellPosition | undefined {
  const clamp = (row: number, col: number) => ({
    row: Math.max(0, Math.min(rows - 1, row)),
    col: Math.max(0, Math.min(cols - 1, col)),
  });
  switch (key) {
    case 'ArrowDown':
      return clamp(at.row + 1, at.col);
    case 'ArrowUp':
      return clamp(at.row - 1, at.col);
    case 'ArrowRight':
      return clamp(at.row, at.col + 1);
    case 'ArrowLeft':
      return clamp(at.row, at.col - 1);
    case 'Home':
      return ctrl ? clamp(0, at.col) : clamp(at.row, 0);
    case 'End':
      return ctrl ? clamp(rows - 1, at.col) : clamp(at.row, cols - 1);
    case 'PageDown':
      return clamp(at.row + Math.max(1, pageRows), at.col);
    case 'PageUp':
      return clamp(at.row - Math.max(1, pageRows), at.col);
    default:
      return undefined;
  }
}

/** True when a key pressed on `target` is the user typing (an input, a text area, a list, an editable element). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(type);
}

/**
 * The list screen's shortcuts: `/` puts the focus in the list's search, `c`
 * opens Create (when `create` is given: the user may create). Neither while
 * the user types in a field, holds a modifier, or works in a dialog.
 */
export function useListShortcuts(root: RefObject<HTMLElement | null>, create: (() => void) | null): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) return;
      if (event.target instanceof Element && event.target.closest('[role="dialog"], [role="menu"], [role="listbox"]'))
        return;
      if (event.key === '/') {
        const search = root.current?.querySelector<HTMLInputElement>('input[type="search"]');
        if (!search) return;
        event.preventDefault();
        search.focus();
        search.select();
      } else if ((event.key === 'c' || event.key === 'C') && !event.shiftKey && create) {
        event.preventDefault();
        create();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [root, create]);
}
