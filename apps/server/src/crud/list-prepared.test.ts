import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { entities } from '@data-platform/shared/entities/registry';
import { parseListQueryString } from '@data-platform/shared/query/list-query';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../db/client.ts';
import { createScratchDatabase } from '../testing/test-server.ts';
import { listRecords } from './records.ts';

/**
 * Lists whose rows do not depend on values the caller picks run as named
 * statements, their plan kept (and made generic after five runs); filtered
 * and searched lists are planned for their own values each time. PostgreSQL
 * only: PGlite takes no named statements. One pooled connection, so that
 * `pg_prepared_statements` (per connection) shows what the lists prepared.
 */

const url = process.env.TEST_DATABASE_URL;
const investors = entities.investors as EntityDescription;
const ROWS = 60;
let database: Database;
let drop: () => Promise<void>;

interface Prepared {
  statement: string;
  generic_plans: number | string;
}

const prepared = () =>
  database.rows<Prepared>(
    sql`select statement, generic_plans from pg_prepared_statements where statement like '%"investors"%'`,
  );

/** Every page of the list by cursor, as the names it holds. */
async function walk(queryString: string): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | null = null;
  do {
    const params = Object.fromEntries(new URLSearchParams(queryString));
    const query = parseListQueryString(investors, cursor ? { ...params, cursor } : params);
    const page = await listRecords(database, investors, query);
    names.push(...page.rows.map((row) => (JSON.parse(row) as { name: string }).name));
    cursor = page.nextCursor;
  } while (cursor);
  return names;
}

describe.skipIf(!url)('prepared list statements (PostgreSQL)', () => {
  beforeAll(async () => {
    const scratch = await createScratchDatabase(url as string);
    drop = scratch.drop;
    database = await openDatabase({ url: scratch.url, poolSize: 1 });
    await database.rows(
      sql`insert into investors (name) select 'Investor ' || lpad(g::text, 3, '0') from generate_series(1, ${ROWS}) g`,
    );
  });

  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  const expected = Array.from({ length: ROWS }, (_, i) => `Investor ${String(i + 1).padStart(3, '0')}`);

  it('walks a whole list by cursor on a kept, then generic, plan and reads every row once, in order', async () => {
    // Twelve cursor pages a walk, twice: the cursor statement runs 22 times, past the five custom plans.
    expect(await walk('sort=name&pageSize=5&select=name')).toEqual(expected);
    expect(await walk('sort=-name&pageSize=5&select=name')).toEqual([...expected].reverse());
    expect(await walk('sort=name&pageSize=5&select=name')).toEqual(expected);
    const statements = await prepared();
    expect(statements.length).toBeGreaterThanOrEqual(2);
    expect(statements.some((s) => Number(s.generic_plans) > 0)).toBe(true);
  });

  it('plans filtered and searched lists for their own values each time', async () => {
    const before = (await prepared()).length;
    for (let i = 0; i < 3; i++) {
      const filtered = await walk(`filter[name][startsWith]=Investor 0${i}&sort=name&pageSize=50&select=name`);
      expect(filtered).toEqual(expected.filter((name) => name.startsWith(`Investor 0${i}`)));
      expect(await walk(`q=Investor 00${i + 1}&pageSize=50&select=name`)).toEqual([`Investor 00${i + 1}`]);
    }
    expect((await prepared()).length).toBe(before);
  });
});
