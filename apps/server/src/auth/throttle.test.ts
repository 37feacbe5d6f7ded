import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { openTestDatabase } from '../testing/test-server.ts';
import { clear, type Limiter, record, retryAfter, take } from './throttle.ts';

let database: Database;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ database, close } = await openTestDatabase());
});

afterAll(async () => {
  await close();
});

const minute = 60_000;
const start = Date.parse('2030-01-01T00:00:00Z');
const threeInTen: Limiter = { name: 'test3in10', limit: 3, windowMs: 10 * minute };
const twoInFive: Limiter = { name: 'test2in5', limit: 2, windowMs: 5 * minute };

describe('throttle counts in the database', () => {
  it('allows `limit` events in a sliding window, then waits until the oldest counted one leaves it', async () => {
    const key = [threeInTen, 'a'] as const;
    await record(database, [key], start);
    await record(database, [key], start + minute);
    expect(await retryAfter(database, [key], start + 2 * minute)).toBe(0);
    await record(database, [key], start + 2 * minute);
    // The event at `start` leaves the window at start + 10 minutes.
    expect(await retryAfter(database, [key], start + 2 * minute)).toBe(8 * 60);
    expect(await retryAfter(database, [key], start + 10 * minute - 500)).toBe(1);
    expect(await retryAfter(database, [key], start + 10 * minute)).toBe(0);
    // Counted again after that: the window slides, the minute-one event is now the oldest counted.
    await record(database, [key], start + 10 * minute);
    expect(await retryAfter(database, [key], start + 10 * minute)).toBe(60);
  });

  it('answers the longest wait of several keys; a key of another limiter counts apart', async () => {
    const a = [twoInFive, 'b'] as const;
    const b = [threeInTen, 'b'] as const;
    await record(database, [a, b], start);
    await record(database, [a, b], start + minute);
    expect(await retryAfter(database, [a], start + minute)).toBe(4 * 60);
    expect(await retryAfter(database, [b], start + minute)).toBe(0);
    await record(database, [b], start + 2 * minute);
    expect(await retryAfter(database, [a, b], start + 2 * minute)).toBe(8 * 60);
    await clear(database, b);
    expect(await retryAfter(database, [a, b], start + 2 * minute)).toBe(3 * 60);
  });

  it('take counts under every key only when all allow, in one statement', async () => {
    const address = [twoInFive, 'address'] as const;
    const account = [threeInTen, 'account'] as const;
    expect(await take(database, [address, account], start)).toBe(0);
    expect(await take(database, [address, account], start)).toBe(0);
    expect(await take(database, [address, account], start + minute)).toBe(4 * 60);
    // The refused attempt was not counted under the account.
    expect(await take(database, [account], start + minute)).toBe(0);
    expect(await take(database, [account], start + minute)).toBe(10 * 60 - 60);
  });

  it('keeps only events within the window, and prunes the rows of keys whose window has passed', async () => {
    const key = [twoInFive, 'old'] as const;
    for (let i = 0; i < 5; i++) await record(database, [key], start + i * 1000);
    const count = async () => {
      const [row] = await database.rows<{ n: number }>(
        sql`select cardinality(events) as n from throttle_counters where limiter = ${twoInFive.name} and key = 'old'`,
      );
      return Number(row?.n);
    };
    expect(await count()).toBe(5);
    await record(database, [key], start + 6 * minute);
    expect(await count()).toBe(1);
    await record(database, [[threeInTen, 'later']], start + 60 * minute);
    const left = await database.rows(
      sql`select key from throttle_counters where expires_at < ${new Date(start + 60 * minute).toISOString()}::timestamptz`,
    );
    expect(left).toEqual([]);
  });
});
