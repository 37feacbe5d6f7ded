import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, adminClient, unique } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * A cursor walk while other people write: rows are inserted and deleted
 * between pages, before and after the cursor. Every row present at the start
 * and not deleted before the walk reached it comes exactly once; a row
 * inserted after the cursor comes once, one inserted behind it never; the
 * order never goes back. Sorts by non-unique and empty-able fields too, where
 * the cursor's id tie-break does the work.
 */

let server: TestServer;
let api: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
});
afterAll(async () => server?.close());

const ROWS = 3000;
const PAGE = 50;
const statuses = ['Prospect', 'Active', 'Portfolio', 'Exited', 'Passed'] as const;

interface Company {
  id: number;
  name: string;
  status: string | null;
}

/** A small seeded generator, so that every run makes the same writes. */
function random(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * below;
  };
}

/**
 * The list order as the API documents it, written here from the documentation
 * rather than taken from the server: each key ascending or descending, empty
 * values last ascending and first descending, then id in the direction of the
 * last key. Names are plain ASCII, which every collation orders alike; a status
 * sorts by its place among the field's options (a picklist's defined order).
 */
const statusOptions = ['Prospect', 'Active', 'Portfolio', 'Exited', 'Passed'];
const statusPlace = (status: string | null) => (status === null ? null : statusOptions.indexOf(status));

function comparator(sort: string): (a: Company, b: Company) => number {
  const keys = sort
    .split(',')
    .map((key) => ({ field: key.replace(/^-/, '') as keyof Company, desc: key.startsWith('-') }));
  if (keys.at(-1)?.field !== 'id') keys.push({ field: 'id', desc: keys.at(-1)?.desc ?? false });
  return (a, b) => {
    for (const { field, desc } of keys) {
      const x = field === 'status' ? statusPlace(a.status) : a[field];
      const y = field === 'status' ? statusPlace(b.status) : b[field];
      if (x === y) continue;
      if (x === null) return desc ? -1 : 1;
      if (y === null) return desc ? 1 : -1;
      return (x < y ? -1 : 1) * (desc ? -1 : 1);
    }
    return 0;
  };
}

/** ROWS companies in a city of their own: 500 names each used about six times, a sixth of them without a status. */
async function seedCity(): Promise<{ city: string; rows: Company[] }> {
  const city = unique('Walkton');
  const rows = await server.database.rows<Company>(sql`
    insert into companies (name, city, status)
    select 'Walk ' || lpad(((g * 7919) % 500)::text, 3, '0'), ${city},
      (array[null, 'Prospect', 'Active', 'Portfolio', 'Exited', 'Passed'])[g % 6 + 1]
    from generate_series(1, ${ROWS}) g
    returning id::int as id, name, status`);
  expect(rows).toHaveLength(ROWS);
  return { city, rows };
}

describe('a cursor walk while rows are inserted and deleted', () => {
  // Where new rows can land: a new id is the highest, so it is always ahead of an id walk, behind a -id one.
  it.each([
    { sort: 'id', lands: 'ahead' },
    { sort: '-id', lands: 'behind' },
    { sort: 'name', lands: 'both' },
    { sort: '-name', lands: 'both' },
    { sort: 'status', lands: 'both' },
    { sort: '-status,name', lands: 'both' },
    { sort: 'status,-name', lands: 'both' },
  ])(
    'sort=$sort: every row present at the start and not deleted comes exactly once, in order',
    async ({ sort, lands }) => {
      const { city, rows } = await seedCity();
      const compare = comparator(sort);
      const draw = random(sort.length * 7919);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(draw(items.length))] as T;
      /** Rows that exist now, by id. */
      const live = new Map(rows.map((row) => [row.id, row]));
      /** How many times each id must come: 1, or 0 once deleted before the walk reached it or inserted behind it. */
      const expected = new Map(rows.map((row) => [row.id, 1]));
      const seen = new Map<number, number>();
      const walked: Company[] = [];
      let insertedAhead = 0;
      let insertedBehind = 0;
      let deletedUnseen = 0;
      let cursor: string | undefined;
      let pages = 0;
      do {
        const answer = await api.list<Company>('/api/v1/companies', {
          'filter[city][eq]': city,
          sort,
          select: 'name,status',
          pageSize: PAGE,
          cursor,
        });
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        for (const row of answer.body.data) {
          walked.push({ id: row.id, name: row.name, status: row.status });
          seen.set(row.id, (seen.get(row.id) ?? 0) + 1);
        }
        cursor = answer.body.nextCursor ?? undefined;
        pages += 1;
        const last = walked.at(-1) as Company;
        if (!cursor) break;

        // Others write between two pages: two deletes anywhere, two inserts that may land on either side.
        for (let i = 0; i < 2; i++) {
          const victim = pick([...live.values()]);
          const deleted = await api.delete(`/api/v1/companies/${victim.id}`);
          expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
          live.delete(victim.id);
          if (!seen.has(victim.id)) {
            expected.set(victim.id, 0);
            deletedUnseen += 1;
          }
        }
        for (let i = 0; i < 2; i++) {
          const values = {
            name: `Walk ${String(Math.floor(draw(500))).padStart(3, '0')}`,
            status: draw(6) < 1 ? null : pick(statuses),
          };
          const created = await api.post('/api/v1/companies', { ...values, city });
          expect(created.status, JSON.stringify(created.body)).toBe(201);
          const row: Company = { id: created.body.id, ...values };
          live.set(row.id, row);
          const ahead = compare(last, row) < 0;
          expected.set(row.id, ahead ? 1 : 0);
          if (ahead) insertedAhead += 1;
          else insertedBehind += 1;
        }
      } while (pages < 1000);

      // The writes fell where this sort lets them (on both sides: the seeded draws make sure of it).
      expect(insertedAhead + insertedBehind).toBe(2 * (pages - 1));
      if (lands === 'ahead') expect(insertedBehind).toBe(0);
      if (lands === 'behind') expect(insertedAhead).toBe(0);
      if (lands === 'both') expect(Math.min(insertedAhead, insertedBehind)).toBeGreaterThan(10);
      expect(deletedUnseen).toBeGreaterThan(10);
      const wrong = [...expected].filter(([id, times]) => (seen.get(id) ?? 0) !== times);
      expect(wrong.map(([id, times]) => ({ id, expected: times, seen: seen.get(id) ?? 0 }))).toEqual([]);
      expect([...seen.keys()].filter((id) => !expected.has(id))).toEqual([]);
      const backwards = walked.findIndex((row, i) => i > 0 && compare(walked[i - 1] as Company, row) >= 0);
      expect(backwards).toBe(-1);
      expect(walked).toHaveLength([...expected.values()].reduce((sum, times) => sum + times, 0));
    },
  );
});
