import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { entities } from '@data-platform/shared/entities/registry';
import { ESTIMATED_COUNT_THRESHOLD } from '@data-platform/shared/query/list-query';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signInWithPermissions } from '../testing/accounts.ts';
import { type ApiClient, adminClient, apiClient, errorOf } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { ESTIMATE_TTL_MS, plannedRows } from './list-count.ts';

/**
 * Totals as the caller asks for them (`count=exact|planned|estimated`, none
 * when absent), on a table filled with 13,000 investors: 12,000 named `Many
 * nnnnn`, 1,000 named `Few nnnnn`, either side of the 10,000 threshold.
 */

const MANY = 12_000;
const FEW = 1_000;
let server: TestServer;
let api: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  // The statistics stay as ANALYZE left them: no autovacuum redoes them halfway through a test.
  await server.database.rows(sql`alter table investors set (autovacuum_enabled = false)`);
  // One statement rather than 13,000 requests: these tests are about counting, not creating.
  await server.database.rows(
    sql`insert into investors (name)
      select 'Many ' || lpad(g::text, 5, '0') from generate_series(1, ${MANY}) g
      union all select 'Few ' || lpad(g::text, 5, '0') from generate_series(1, ${FEW}) g`,
  );
  await server.database.rows(sql`analyze investors`);
});

afterAll(async () => server?.close());

const investors = entities.investors as EntityDescription;
const many = { 'filter[name][startsWith]': 'Many' };
const few = { 'filter[name][startsWith]': 'Few' };
const planned = (query: Record<string, string>) =>
  plannedRows(server.database, investors, {
    where: query['filter[name][startsWith]']
      ? { field: 'name', op: 'startsWith', value: query['filter[name][startsWith]'] }
      : undefined,
  });

async function list(query: Record<string, string | number>) {
  const answer = await api.list('/api/v1/investors', { select: 'name', pageSize: 2, ...query });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

describe('no count unless asked', () => {
  it('answers total null on lists and queries without count', async () => {
    expect(await list(many)).toMatchObject({ total: null, totalExact: null });
    const queried = await api.query('/api/v1/investors', { filter: { name: { startsWith: 'Many' } }, pageSize: 2 });
    expect(queried.body).toMatchObject({ total: null, totalExact: null });
    expect(queried.body.data).toHaveLength(2);
  });

  it('refuses a count it does not know with 400 naming count', async () => {
    const listed = await api.list('/api/v1/investors', { count: 'all' });
    expect(listed.status).toBe(400);
    expect(errorOf(listed).fields).toEqual({ count: 'Expected one of exact, planned, estimated' });
    const queried = await api.query('/api/v1/investors', { count: 1 });
    expect(queried.status).toBe(400);
    expect(errorOf(queried).fields).toEqual({ count: 'Expected one of exact, planned, estimated' });
  });
});

describe('count=exact', () => {
  it('counts the matching rows, on lists and queries, on a page past the end and on pages by cursor', async () => {
    expect(await list({ ...many, count: 'exact' })).toMatchObject({ total: MANY, totalExact: true });
    expect(await list({ count: 'exact' })).toMatchObject({ total: MANY + FEW, totalExact: true });
    const queried = await api.query('/api/v1/investors', { filter: { name: { startsWith: 'Few' } }, count: 'exact' });
    expect(queried.body).toMatchObject({ total: FEW, totalExact: true });
    const past = await list({ ...few, count: 'exact', page: 1000 });
    expect(past).toMatchObject({ data: [], total: FEW, totalExact: true, nextCursor: null });
    const first = await list(few);
    const next = await list({ ...few, count: 'exact', cursor: first.nextCursor as string });
    expect(next).toMatchObject({ total: FEW, totalExact: true });
    expect(next.data.map((row) => row.name)).toEqual(['Few 00003', 'Few 00004']);
  });
});

describe('count=planned', () => {
  it("answers the planner's estimate, filtered or not, saying it is one", async () => {
    expect(await list({ ...many, count: 'planned' })).toMatchObject({ total: await planned(many), totalExact: false });
    expect(await list({ count: 'planned' })).toMatchObject({ total: await planned({}), totalExact: false });
    const queried = await api.query('/api/v1/investors', { filter: { name: { startsWith: 'Few' } }, count: 'planned' });
    expect(queried.body).toMatchObject({ total: await planned(few), totalExact: false });
  });
});

describe('count=estimated', () => {
  it('counts exactly where the planner expects at most the threshold', async () => {
    expect(await planned(few)).toBeLessThanOrEqual(ESTIMATED_COUNT_THRESHOLD);
    expect(await list({ ...few, count: 'estimated' })).toMatchObject({ total: FEW, totalExact: true });
    const queried = await api.query('/api/v1/investors', {
      filter: { name: { startsWith: 'Few' } },
      count: 'estimated',
    });
    expect(queried.body).toMatchObject({ total: FEW, totalExact: true });
    // An empty table, as a whole: counted.
    expect((await api.list('/api/v1/funds', { count: 'estimated' })).body).toMatchObject({
      total: 0,
      totalExact: true,
    });
  });

  it('answers the estimate above the threshold, never a count it made', async () => {
    const estimate = await planned(many);
    expect(estimate).toBeGreaterThan(ESTIMATED_COUNT_THRESHOLD);
    expect(await list({ ...many, count: 'estimated' })).toMatchObject({ total: estimate, totalExact: false });
    expect(await list({ count: 'estimated' })).toMatchObject({ total: await planned({}), totalExact: false });
  });

  it('decides from the estimate before counting: a list that shrank unseen by the planner is still estimated', async () => {
    // 2,000 rows go, and the statistics do not hear of it: 10,000 remain, at the threshold, but the planner expects more.
    await server.database.rows(
      sql`delete from investors where name > ${`Many ${String(MANY - 2_000).padStart(5, '0')}`}`,
    );
    expect(await list({ ...many, count: 'exact' })).toMatchObject({ total: MANY - 2_000, totalExact: true });
    const estimate = await planned(many);
    expect(estimate).toBeGreaterThan(ESTIMATED_COUNT_THRESHOLD);
    expect(await list({ ...many, count: 'estimated' })).toMatchObject({ total: estimate, totalExact: false });
  });
});

describe("a filter's estimate, kept (decision 0039)", () => {
  const kept = { 'filter[name][startsWith]': 'Kept' };

  it('is reused for a while by the same filter, then asked again; a count is never kept', async () => {
    await server.database.rows(
      sql`insert into investors (name) select 'Kept ' || lpad(g::text, 5, '0') from generate_series(1, 12000) g`,
    );
    await server.database.rows(sql`analyze investors`);
    const before = await planned(kept);
    expect(before).toBeGreaterThan(ESTIMATED_COUNT_THRESHOLD);
    expect(await list({ ...kept, count: 'estimated' })).toMatchObject({ total: before, totalExact: false });

    // The planner changes its mind: 18,000 more, analyzed. The estimate kept is still the answer, planned too.
    await server.database.rows(
      sql`insert into investors (name) select 'Kept x' || lpad(g::text, 5, '0') from generate_series(1, 18000) g`,
    );
    await server.database.rows(sql`analyze investors`);
    const after = await planned(kept);
    expect(after).toBeGreaterThan(before + 10_000);
    expect(await list({ ...kept, count: 'estimated' })).toMatchObject({ total: before, totalExact: false });
    expect(await list({ ...kept, count: 'planned' })).toMatchObject({ total: before, totalExact: false });
    // Another filter is another estimate; an exact count is counted.
    expect(await list({ 'filter[name][startsWith]': 'Kept x', count: 'planned' })).toMatchObject({
      total: await planned({ 'filter[name][startsWith]': 'Kept x' }),
    });
    expect(await list({ ...kept, count: 'exact' })).toMatchObject({ total: 30_000, totalExact: true });

    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + ESTIMATE_TTL_MS + 1);
      expect(await list({ ...kept, count: 'estimated' })).toMatchObject({ total: after, totalExact: false });
    } finally {
      vi.useRealTimers();
    }
  });

  it("is never another row scope's: a reader limited to fewer rows gets the planner's estimate of their own", async () => {
    // 12,000 invited users and 12 active ones, all named "Scoped …". A reader without users:read sees only
    // users who accepted (the users' limitedRead), so the planner expects far fewer rows for them.
    await server.database.rows(
      sql`insert into users (email, first_name, last_name, status)
        select 'scoped-' || g || '@test.example', 'Scoped', lpad(g::text, 5, '0'),
          case when g <= 12 then 'active' else 'invited' end
        from generate_series(1, 12012) g`,
    );
    await server.database.rows(sql`analyze users`);
    const scoped = { select: 'fullName', pageSize: 2, 'filter[fullName][startsWith]': 'Scoped', count: 'planned' };
    const everyone = await api.list('/api/v1/users', scoped);
    expect(everyone.status, JSON.stringify(everyone.body)).toBe(200);
    expect(everyone.body.total).toBeGreaterThan(ESTIMATED_COUNT_THRESHOLD);

    const reader = await signInWithPermissions(server, ['companies:read']);
    const limited = apiClient(server.url, { authorization: `Bearer ${reader.token}` });
    const theirs = await limited.list('/api/v1/users', scoped);
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
    expect(theirs.body).toMatchObject({ totalExact: false });
    expect(theirs.body.total).toBeLessThan(1_000);
    // Estimated, the limited reader's few rows are counted: 12 accepted users named so.
    expect((await limited.list('/api/v1/users', { ...scoped, count: 'estimated' })).body).toMatchObject({
      total: 12,
      totalExact: true,
    });
    // And the administrator's estimate is still their own.
    expect((await api.list('/api/v1/users', scoped)).body.total).toBe(everyone.body.total);
  });

  it('under the threshold, counts every time: rows added since the estimate are in the total', async () => {
    expect(await list({ ...few, count: 'estimated' })).toMatchObject({ total: FEW, totalExact: true });
    await server.database.rows(sql`insert into investors (name) select 'Few x' || g from generate_series(1, 7) g`);
    expect(await list({ ...few, count: 'estimated' })).toMatchObject({ total: FEW + 7, totalExact: true });
    const queried = await api.query('/api/v1/investors', {
      filter: { name: { startsWith: 'Few' } },
      count: 'estimated',
    });
    expect(queried.body).toMatchObject({ total: FEW + 7, totalExact: true });
  });
});
