import { POSITION_PATTERN, parsePosition, READ_AFTER_HEADER } from '@data-platform/shared/read-after';

/**
 * Read-your-writes with a read replica (the server's decision 0048): each
 * write's answer carries the database position it reached (`Read-After`),
 * and every later request sends the highest one heard, so that the server
 * reads lists on its replica only once the replica holds them. Kept in
 * localStorage: a write in one tab is read in the others and after a
 * reload. A server without a replica sends no position; nothing is sent then.
 */
const KEY = 'dp.readAfter';

function stored(): string | null {
  try {
    const position = localStorage.getItem(KEY);
    return position && POSITION_PATTERN.test(position) ? position : null;
  } catch {
    return null;
  }
}

/** Keeps the position an answer carried, when it is past the one kept. */
export function heardPosition(position: string | null): void {
  if (!position || !POSITION_PATTERN.test(position)) return;
  const kept = stored();
  if (kept && parsePosition(kept) >= parsePosition(position)) return;
  try {
    localStorage.setItem(KEY, position);
  } catch {
    // Storage refused (private mode, full): reads may lag this tab's writes by the replica's delay.
  }
}

/** The header that asks for reads holding every write this browser made, or none. */
export function readAfterHeader(): Record<string, string> {
  const position = stored();
  return position ? { [READ_AFTER_HEADER]: position } : {};
}
