import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { entities } from '@data-platform/shared/entities/registry';
import { parseListQueryString } from '@data-platform/shared/query/list-query';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { openTestDatabase } from '../testing/test-server.ts';
import { type ListScope, relationScope } from './list-compiler.ts';
import { listRecords, readRecord } from './records.ts';

/**
 * Lists and gets without scope run from statement texts kept per shape
 * (CompiledTexts, decision 0047), on PGlite and PostgreSQL alike: what they
 * answer is what the same requests answer from statements built anew.
 */

const investors = entities.investors as EntityDescription;
const ROWS = 60;
let database: Database;
let close: () => Promise<void>;
/** The same database without textRows: every statement built anew from the query. */
let built: Database;
/** The same database, counting the statements it ran from kept texts. */
let counted: Database;
let keptRuns = 0;

beforeAll(async () => {
  ({ database, close } = await openTestDatabase());
  await database.rows(sql`insert into investors (name, type, city)
    select 'Investor ' || lpad(g::text, 3, '0'),
      case when g % 3 = 0 then null else (array['Bank', 'Endowment', 'Corporate'])[g % 3 + 1] end,
      case when g % 4 = 0 then null else 'City ' || (g % 5) end
    from generate_series(1, ${ROWS}) g`);
  built = { ...database, textRows: undefined };
  const textRows = database.textRows;
  if (!textRows) throw new Error('Both databases run kept texts');
  counted = {
    ...database,
    textRows: (text, params, options) => {
      keptRuns++;
      return textRows(text, params, options);
    },
  };
});

afterAll(async () => close?.());

/** Every page by cursor, then the first ten pages by number, of `entity` within `scope` (made anew for each list). */
async function pages(
  on: Database,
  raw: Record<string, string>,
  entity: EntityDescription = investors,
  scope: () => ListScope | undefined = () => undefined,
): Promise<unknown[]> {
  const seen: unknown[] = [];
  let cursor: string | null = null;
  do {
    const page = await listRecords(
      on,
      entity,
      parseListQueryString(entity, cursor ? { ...raw, cursor } : raw),
      scope(),
    );
    seen.push(page);
    cursor = page.nextCursor;
  } while (cursor);
  for (let n = 1; n <= 10; n++)
    seen.push(await listRecords(on, entity, parseListQueryString(entity, { ...raw, page: String(n) }), scope()));
  return seen;
}

describe('statement texts kept per shape', () => {
  it('answer the same pages as statements built anew, filtered, searched or neither, totals included', async () => {
    const filters: Record<string, string>[] = [
      {},
      { 'filter[type][eq]': 'Bank' },
      { 'filter[type][eq]': 'Corporate' },
      { 'filter[city][isNull]': 'true', 'filter[name][contains]': '0' },
      { 'filter[type][in]': 'Bank,Corporate', 'filter[name][startsWith]': 'Investor 01' },
      // Searches: ranked first by exact, prefix and other matches when no order is given.
      { q: 'Investor 01' },
      { q: 'investor 012' },
      { q: '5', 'filter[type][eq]': 'Bank' },
    ];
    for (const [sort, filter] of filters.flatMap((f) =>
      ['type,name', '-city', 'city,-type', ...(f.q ? [undefined] : [])].map((s) => [s, f] as const),
    )) {
      for (const count of [undefined, 'exact', 'estimated', 'planned']) {
        const raw = {
          ...filter,
          ...(sort ? { sort } : {}),
          pageSize: '7',
          select: 'name,type,city',
          ...(count ? { count } : {}),
        };
        const runs = keptRuns;
        const kept = await pages(counted, raw);
        // A page alone is always kept (a filtered or searched total in one statement with it is built each time).
        if (!count) expect(keptRuns).toBeGreaterThan(runs);
        expect(kept).toEqual(await pages(built, raw));
        // Twice: the second time every text is a kept one.
        expect(await pages(counted, raw)).toEqual(kept);
      }
    }
  });

  it("answer the same pages of a record's related rows, through a foreign key or a link collection, for each record", async () => {
    const countries = entities.countries as EntityDescription;
    const states = entities.states as EntityDescription;
    const deals = entities.deals as EntityDescription;
    await database.rows(sql`insert into deals (name) select 'Deal ' || g from generate_series(1, 3) g`);
    // Deal n is linked to the investors whose number is a multiple of n, with a commitment of n × 1,000 EUR.
    await database.rows(sql`insert into deal_investors (deal_id, investor_id, commitment, commitment_currency)
      select d.id, i.id, right(d.name, 1)::int * 1000, 'EUR' from deals d join investors i
        on right(i.name, 3)::int % right(d.name, 1)::int = 0 where d.name like 'Deal %'`);
    const [france, germany] = (
      await database.rows<{ id: number }>(
        sql`select id::int as id from countries where iso2 in ('FR', 'DE') order by iso2 desc`,
      )
    ).map((row) => row.id) as [number, number];
    const dealIds = (
      await database.rows<{ id: number }>(sql`select id::int as id from deals where name like 'Deal %' order by id`)
    ).map((row) => row.id);
    const lists: [EntityDescription, EntityDescription, string, number[], Record<string, string>[]][] = [
      [
        countries,
        states,
        'states',
        [france, germany],
        [{ sort: 'name' }, { sort: '-name', 'filter[name][contains]': 'a' }, { q: 'ar' }],
      ],
      [
        deals,
        investors,
        'investors',
        dealIds,
        [{ sort: 'name' }, { sort: '-city,name', 'filter[type][eq]': 'Bank' }, { q: 'Investor 01' }],
      ],
    ];
    for (const [entity, related, relation, ids, queries] of lists) {
      for (const id of ids) {
        for (const query of queries) {
          for (const count of [undefined, 'exact', 'estimated']) {
            const raw = { ...query, pageSize: '4', ...(count ? { count } : {}) };
            const scope = () => relationScope(entity, relation, id);
            // The same list without the scope first (investors: 60 rows, where states are thousands): its kept
            // text must not serve the scoped one.
            if (related === investors) await pages(counted, raw, related);
            const runs = keptRuns;
            const kept = await pages(counted, raw, related, scope);
            if (!count) expect(keptRuns).toBeGreaterThan(runs);
            expect(kept).toEqual(await pages(built, raw, related, scope));
            expect(await pages(counted, raw, related, scope)).toEqual(kept);
          }
        }
      }
    }
    // Each record's own rows, not the first record's kept: the deals list different investors.
    const firstPages = await Promise.all(
      dealIds.map((id) =>
        listRecords(
          counted,
          investors,
          parseListQueryString(investors, { sort: 'name', count: 'exact' }),
          relationScope(deals, 'investors', id),
        ),
      ),
    );
    expect(firstPages.map((page) => page.total)).toEqual([60, 30, 20]);
  });

  it('answer the same record for a get, whole or selected, and none for an id no row has', async () => {
    const [{ id }] = (await database.rows<{ id: number }>(sql`select min(id)::int as id from investors`)) as [
      { id: number },
    ];
    for (const select of [undefined, ['name'], ['name', 'version'], ['city', 'type', 'createdAt']]) {
      const query = { select, join: [] };
      const runs = keptRuns;
      const kept = await readRecord(counted, investors, id, query);
      expect(keptRuns).toBe(runs + 1);
      expect(kept).toEqual(await readRecord(built, investors, id, query));
      expect(await readRecord(counted, investors, id + 1, query)).not.toEqual(kept);
      await expect(readRecord(counted, investors, 2_000_000_000, query)).rejects.toMatchObject({ kind: 'notFound' });
    }
  });
});
