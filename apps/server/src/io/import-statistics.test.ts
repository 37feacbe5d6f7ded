import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { entities } from '@data-platform/shared/entities/registry';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { openTestDatabase } from '../testing/test-server.ts';
import { ImportStatistics } from './import-statistics.ts';

const companies = entities.companies as EntityDescription;
let database: Database;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ database, close } = await openTestDatabase());
  // Only the import's ANALYZEs, not autovacuum's (PostgreSQL), may change what the statistics know here.
  await database.rows(sql`alter table companies set (autovacuum_enabled = false)`);
});
afterAll(async () => close?.());

/** Rows the planner's statistics know of a table. */
const known = async (table: string) =>
  Number(
    (
      await database.rows<{ rows: number | string }>(
        sql`select reltuples::float8 as rows from pg_class where oid = ${table}::regclass`,
      )
    )[0]?.rows,
  );
const insert = (rows: number) =>
  database.rows(sql`insert into companies (name) select 'Grown ' || g from generate_series(1, ${rows}) g`);

describe("an import's table statistics", () => {
  it('are brought up to date after the first 1,000 rows, then each time the table has doubled, not between', async () => {
    const statistics = new ImportStatistics(database, companies);
    await insert(400);
    await statistics.wrote(400);
    expect(await known('companies')).toBeLessThan(400);
    await insert(700);
    await statistics.wrote(700);
    expect(await known('companies')).toBe(1100);
    // The history entries' and search words' tables too.
    expect(await known('record_history')).toBeGreaterThanOrEqual(0);
    expect(await known('search_words')).toBeGreaterThan(0);
    await insert(900);
    await statistics.wrote(900);
    expect(await known('companies')).toBe(1100);
    await insert(300);
    await statistics.wrote(300);
    expect(await known('companies')).toBe(2300);
  });
});
