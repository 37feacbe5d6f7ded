/**
 * Read-your-writes with a read replica (the server's decision 0048): a
 * write's answer carries the database position it reached in this header,
 * and a client sends the highest one it heard with its reads.
 */
export const READ_AFTER_HEADER = 'read-after';

/** A WAL position as PostgreSQL writes it (`16/B374D848`). */
export const POSITION_PATTERN = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/i;

/** `16/B374D848` as one number, to compare. */
export function parsePosition(text: string): bigint {
  const [high, low] = text.split('/') as [string, string];
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}
