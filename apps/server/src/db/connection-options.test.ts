import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../testing/test-server.ts';
import { type Database, openDatabase } from './client.ts';

/**
 * Every connection of the pool is set as decision 0042 says: times in UTC,
 * no JIT compilation. PostgreSQL only: PGlite has no JIT and one connection.
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)("the pool's connections (PostgreSQL)", () => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const scratch = await createScratchDatabase(url as string);
    drop = scratch.drop;
    database = await openDatabase({ url: scratch.url, poolSize: 3 });
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  it('compile no statement (jit off) and tell times in UTC, each of them', async () => {
    // Three at once, each holding its connection a moment, so that the pool opens three.
    const settings = await Promise.all(
      [1, 2, 3].map(() =>
        database.rows<{ pid: number; jit: string; zone: string }>(
          sql`select pg_backend_pid() as pid, current_setting('jit') as jit, current_setting('TimeZone') as zone
            from pg_sleep(0.2)`,
        ),
      ),
    );
    const rows = settings.flat();
    expect(new Set(rows.map((row) => row.pid)).size).toBe(3);
    expect(rows.map((row) => [row.jit, row.zone])).toEqual([
      ['off', 'UTC'],
      ['off', 'UTC'],
      ['off', 'UTC'],
    ]);
  });
});
