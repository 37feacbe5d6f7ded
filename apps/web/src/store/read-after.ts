/**
 * Read-your-writes with a read replica (the server's decision 0048): each
 * write's answer carries the database position it reached (`Read-After`),
 * and every later request sends the highest one heard, so that the server
 * reads lists on its replica only once the replica holds them. Kept in
 * localStorage: a write in one tab is read in the others and after a
 * reload. A server without a replica sends no position; nothing is sent then.
 */
const KEY = 'dp.readAfter';
const POSITION = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/i;

const valueOf = (position: string): bigint => {
  const [high, low] = position.split('/') as [string, string];
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
};

function stored(): string | null {
  try {
    const position = localStorage.getItem(KEY);
    return position && POSITION.test(position) ? position : null;
  } catch {
    return null;
  }
}

/** Keeps the position an answer carried, when it is past the one kept. */
export function heardPosition(position: string | null): void {
  if (!position || !POSITION.test(position)) return;
  const kept = stored();
  if (kept && valueOf(kept) >= valueOf(position)) return;
  try {
    localStorage.setItem(KEY, position);
  } catch {
    // Storage refused (private mode, full): reads may lag this tab's writes by the replica's delay.
  }
}

/** The header that asks for reads holding every write this browser made, or none. */
export function readAfterHeader(): Record<string, string> {
  const position = stored();
  return position ? { 'read-after': position } : {};
}
