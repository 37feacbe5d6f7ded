import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { entities } from '@data-platform/shared/entities/registry';
import { parseListQueryString } from '@data-platform/shared/query/list-query';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relatedRowsScope } from '../access/reading.ts';
import { systemActor } from '../auth/actor.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { createScratchDatabase } from '../testing/test-server.ts';
import { createRecord, listRecords, updateRecord } from './records.ts';

/**
 * Lists that one plan serves whatever their values run as named statements,
 * their plan kept (and made generic after five runs): a whole table, and rows
 * equal to given values in an order an index serves after those fields
 * (decisions 0021 and 0049). Other filtered and searched lists are planned for
 * their own values each time. PostgreSQL only: PGlite takes no named
 * statements. One pooled connection, so that `pg_prepared_statements` (per
 * connection) shows what the lists prepared.
 */

const url = process.env.TEST_DATABASE_URL;
const investors = entities.investors as EntityDescription;
const countries = entities.countries as EntityDescription;
const states = entities.states as EntityDescription;
const ROWS = 60;
let database: Database;
let drop: () => Promise<void>;

interface Prepared {
  statement: string;
  generic_plans: number | string;
}

const prepared = (table = 'investors') =>
  database.rows<Prepared>(
    sql`select statement, generic_plans from pg_prepared_statements where statement like ${`%"${table}"%`}`,
  );

/** Every page of the list by cursor, as the names it holds. */
async function walk(
  queryString: string,
  entity = investors,
  scope?: () => ReturnType<typeof relatedRowsScope>,
): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | null = null;
  do {
    const params = Object.fromEntries(new URLSearchParams(queryString));
    const query = parseListQueryString(entity, cursor ? { ...params, cursor } : params);
    const page = await listRecords(database, entity, query, scope?.());
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

  /** The id of a country by its ISO code (reference data the migrations load). */
  const country = async (iso2: string) =>
    Number((await database.rows<{ id: string }>(sql`select id from countries where iso2 = ${iso2}`))[0]?.id);

  const expected = Array.from({ length: ROWS }, (_, i) => `Investor ${String(i + 1).padStart(3, '0')}`);

  it('walks a whole list by cursor on a kept, then generic, plan and reads every row once, in order', async () => {
    // Twelve cursor pages a walk, twice: the cursor statement runs 22 times, past the five custom plans.
    expect(await walk('sort=name&pageSize=5&select=name')).toEqual(expected);
    expect(await walk('sort=-name&pageSize=5&select=name')).toEqual([...expected].reverse());
    expect(await walk('sort=name&pageSize=5&select=name')).toEqual(expected);
    const statements = await prepared();
    expect(statements.length).toBeGreaterThanOrEqual(2);
    // The cursor's values out of the planner's sight, typed as their columns: its plan is made once (decision 0055).
    const cursorPages = statements.filter((s) =>
      /\("t"\."name", "t"\."id"\) [<>] \(\(select \$1::text\), \(select \$2::bigint\)\)/.test(s.statement),
    );
    expect(cursorPages.length).toBe(2);
    expect(cursorPages.every((s) => Number(s.generic_plans) > 0)).toBe(true);
  });

  it('writes a page’s limit into its text, so that the first page’s plan is made once (decision 0055)', async () => {
    for (let i = 0; i < 7; i++) {
      const page = await listRecords(
        database,
        investors,
        parseListQueryString(investors, { sort: 'name', pageSize: '7' }),
      );
      expect(page.rows.map((row) => (JSON.parse(row) as { name: string }).name)).toEqual(expected.slice(0, 7));
    }
    const first = (await prepared()).find((s) => /limit 8 offset 0\)/.test(s.statement));
    expect(Number(first?.generic_plans)).toBeGreaterThanOrEqual(7);
  });

  it('plans filtered lists, and searches beside a filter, for their own values each time', async () => {
    const before = (await prepared()).length;
    for (let i = 0; i < 3; i++) {
      const filtered = await walk(`filter[name][startsWith]=Investor 0${i}&sort=name&pageSize=50&select=name`);
      expect(filtered).toEqual(expected.filter((name) => name.startsWith(`Investor 0${i}`)));
      const searched = await walk(`q=Investor 00${i + 1}&filter[name][startsWith]=Investor&pageSize=50&select=name`);
      expect(searched).toEqual([`Investor 00${i + 1}`]);
    }
    expect((await prepared()).length).toBe(before);
  });

  it('names a search of the whole table that reads few matches, and answers each pattern its own (decision 0052)', async () => {
    const before = new Set((await prepared()).map((s) => s.statement));
    // More runs than PostgreSQL's five custom plans, with patterns that match one row, ten, or none.
    for (let i = 0; i < 4; i++) {
      expect(await walk(`q=Investor 00${i + 1}&pageSize=50&select=name`)).toEqual([`Investor 00${i + 1}`]);
      const tenth = expected.filter((name) => name.startsWith(`Investor 0${i + 1}`));
      expect(await walk(`q=Investor 0${i + 1}&pageSize=4&select=name`)).toEqual(tenth);
      expect(await walk(`q=no such investor ${i}&pageSize=50&select=name`)).toEqual([]);
    }
    // A term without three letters or digits in a row: no trigram to look up, planned for its own pattern.
    for (let i = 0; i < 7; i++) expect(await walk(`q=r ${i + 1}&pageSize=50&select=name`)).toEqual([]);
    const added = (await prepared()).filter((s) => !before.has(s.statement));
    // The first page's statement and the cursor pages' (a ranked cursor starts with its rank: one text a rank).
    expect(added.length).toBeGreaterThan(0);
    expect(added.every((s) => /ilike/i.test(s.statement))).toBe(true);
    // Its terms out of the planner's sight, the first page's statement went generic (decision 0054).
    const unseen = added.filter((s) => s.statement.includes('ilike (select $'));
    expect(unseen.some((s) => Number(s.generic_plans) > 0)).toBe(true);
    // The terms without a trigram bound in sight: PostgreSQL plans them for their own pattern while that is cheaper.
    expect(added.some((s) => /ilike \$\d/.test(s.statement))).toBe(true);
  });

  it('keeps the plan of rows equal to given values in an order an index serves, whatever the values', async () => {
    const [big, small] = [await country('US'), await country('FR')];
    // Most investors in one country, a few in another: one plan, the (country, name) index's range, serves both.
    await database.rows(
      sql`update investors set hq_country_id = case when id % 10 = 0 then ${small}::bigint else ${big}::bigint end`,
    );
    // With the table's statistics (autovacuum takes them), PostgreSQL finds the generic plan as cheap as the custom ones.
    await database.rows(sql`analyze investors`);
    const inCountry = async (id: number) =>
      (
        await database.rows<{ name: string }>(
          sql`select name from investors where hq_country_id = ${id} order by name, id`,
        )
      ).map((r) => r.name);
    const before = await prepared();
    for (let i = 0; i < 4; i++) {
      for (const id of [big, small]) {
        expect(await walk(`filter[hqCountryId]=${id}&sort=name&pageSize=5&select=name`)).toEqual(await inCountry(id));
      }
    }
    const after = await prepared();
    const filtered = after.filter((s) => !before.some((b) => b.statement === s.statement));
    // The first page's statement and the cursor pages' one, each past its five custom plans.
    expect(filtered.length).toBe(2);
    expect(filtered.every((s) => /hq_country_id/.test(s.statement) && Number(s.generic_plans) > 0)).toBe(true);
    // The country bound out of the planner's sight, as a bigint (decision 0055).
    expect(filtered.every((s) => s.statement.includes('"hq_country_id" = (select $1::bigint)'))).toBe(true);
  });

  it('plans per value a filter no index serves in the order asked, a set of values, a pattern, or a count', async () => {
    const id = await country('US');
    const before = new Set((await prepared()).map((s) => s.statement));
    for (let i = 0; i < 3; i++) {
      // No index leads (country, createdAt): a small country sorts its rows, a big one walks the order's index.
      await walk(`filter[hqCountryId]=${id}&sort=-createdAt&pageSize=50&select=name`);
      await walk(`filter[hqCountryId][in]=${id}&sort=name&pageSize=50&select=name`);
      await walk(`filter[hqCountryId]=${id}&filter[name][startsWith]=Investor 01&sort=name&pageSize=50&select=name`);
      // The page is kept; its count, for one country a scan of the index and for another of the table, is not.
      await walk(`filter[hqCountryId]=${id}&sort=name&pageSize=50&select=name&count=exact`);
    }
    const added = (await prepared()).map((s) => s.statement).filter((text) => !before.has(text));
    expect(added).toEqual([]);
  });

  it("keeps the plan of one owner's rows in name order, through the owners' index of the rows that have one", async () => {
    const [user] = await database.rows<{ id: string }>(
      sql`insert into users (email, first_name, last_name, status) values ('owner@example.com', 'Olive', 'Owner', 'active') returning id`,
    );
    const owner = Number(user?.id);
    // A third of the investors are the owner's, the rest have none: the index leaves those out.
    await database.rows(sql`update investors set owner_id = case when id % 3 = 0 then ${owner}::bigint end`);
    await database.rows(sql`analyze investors`);
    const owned = (
      await database.rows<{ name: string }>(sql`select name from investors where owner_id = ${owner} order by name, id`)
    ).map((r) => r.name);
    expect(owned.length).toBe(ROWS / 3);
    const before = await prepared();
    for (let i = 0; i < 4; i++) {
      expect(await walk(`filter[ownerId]=${owner}&sort=name&pageSize=5&select=name`)).toEqual(owned);
      expect(await walk(`filter[ownerId]=${owner + 1000}&sort=name&pageSize=5&select=name`)).toEqual([]);
    }
    const kept = (await prepared()).filter((s) => !before.some((b) => b.statement === s.statement));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.every((s) => /owner_id/.test(s.statement))).toBe(true);
  });

  it('keeps the plan of a record’s related rows read through an index that leads with its reference', async () => {
    const names = async (iso2: string) =>
      (
        await database.rows<{ name: string }>(
          sql`select s.name from states s join countries c on c.id = s.country_id where c.iso2 = ${iso2} order by s.name, s.id`,
        )
      ).map((r) => r.name);
    for (let i = 0; i < 3; i++) {
      for (const iso2 of ['US', 'FR', 'DE']) {
        const id = await country(iso2);
        // As the related list's route reads them: only while the country exists (relatedRowsScope).
        const listed = await walk('sort=name&pageSize=20&select=name', states, () =>
          relatedRowsScope(countries, 'states', id, systemActor),
        );
        expect(listed).toEqual(await names(iso2));
      }
    }
    const kept = await prepared('states');
    expect(
      kept.some(
        (s) => /country_id/.test(s.statement) && /"countries"/.test(s.statement) && Number(s.generic_plans) > 0,
      ),
    ).toBe(true);
  });

  it('names a create’s and an update’s statement, whose plan is the same for any values (decisions 0051, 0055)', async () => {
    const before = new Set((await prepared()).map((s) => s.statement));
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) {
      const row = await createRecord(database, investors, { name: `Named write ${i}` }, systemActor);
      ids.push((JSON.parse(row) as { id: number }).id);
    }
    for (const id of ids) {
      const row = await updateRecord(database, investors, id, 1, { name: `Named write ${id} renamed` }, systemActor);
      expect((JSON.parse(row) as { name: string; version: number }).version).toBe(2);
    }
    // A stale update is still refused as stale (412) through the named statement.
    await expect(
      updateRecord(database, investors, ids[0] as number, 1, { name: 'Stale' }, systemActor),
    ).rejects.toMatchObject({ kind: 'stale', code: 'stale_version' });
    const added = (await prepared()).filter((s) => !before.has(s.statement));
    const insert = added.find((s) => /insert into "investors"/.test(s.statement));
    const update = added.find((s) => /update "investors"/.test(s.statement));
    // Parsed once per connection, and planned once: the insert's row arrays are out of the planner's sight.
    expect(Number(insert?.generic_plans)).toBeGreaterThan(0);
    expect(Number(update?.generic_plans)).toBeGreaterThan(0);
    const names = await database.rows<{ name: string }>(
      sql`select name from investors where name like 'Named write %' order by id`,
    );
    expect(names.map((r) => r.name)).toEqual(ids.map((id) => `Named write ${id} renamed`));
  });
});
