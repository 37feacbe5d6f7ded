/**
 * Read-your-writes with a read replica (the server's decision 0048): each
 * write's answer carries the database position it reached (`Read-After`),
 * and every later request of this tab sends the highest one heard, so that
 * the server reads lists on its replica only once the replica holds them. A
 * server without a replica sends no position; nothing is sent then. Kept in
 * memory, and as small as it is: the first screens' JavaScript is budgeted
 * (web-bundle.test.ts), and a reload takes longer than a replica lags.
 */
let highest = '';

/** `16/B374D848` (PostgreSQL writes the digits in capitals) as text that sorts as the position does. */
const sortable = (position: string) =>
  position
    .split('/')
    .map((part) => part.padStart(8, '0'))
    .join('');

/** Keeps the position an answer carried, when it is past the one kept. */
export function heardPosition(position: string | null): void {
  if (position && sortable(position) > sortable(highest)) highest = position;
}

/** The highest position heard, for the request's `Read-After` header; empty before any. */
export const readAfter = (): string => highest;
