import { companyStages } from '@data-platform/shared/entities/picklists';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, adminClient, errorOf, factories, type Row } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * Sorting, offset paging, keyset cursors, totals, search ranking and
 * selection of lists, over HTTP.
 */

let server: TestServer;
let api: ApiClient;
/** The companies made for paging, all tagged `paging`, with every field. */
let rows: Row[];
const scope = { 'filter[tags][contains]': 'paging' };
const COUNT = 41;

const cities = ['Austin', 'Boston', null, 'Chicago', 'Boston', null];
const stages = ['Seed', 'Series A', null, 'Series B', 'Growth'];

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  const make = factories(api);
  for (let i = 0; i < COUNT; i++) {
    await make.company({
      name: `Company ${String((i * 17) % COUNT).padStart(3, '0')}`,
      city: cities[i % cities.length],
      stage: stages[i % stages.length],
      employees: i % 7 === 0 ? null : (i * 37) % 11,
      revenue: i % 5 === 0 ? null : { amount: ((i * 13) % 6) * 1000.5, currency: i % 2 ? 'USD' : 'EUR' },
      tags: ['paging'],
    });
  }
  const all = await api.list('/api/v1/companies', { ...scope, pageSize: 1000 });
  rows = all.body.data;
  expect(rows).toHaveLength(COUNT);
});

afterAll(async () => server?.close());

/**
 * The ids in the order the API promises: each key ascending or descending,
 * empty values last ascending and first descending, id breaking ties in the
 * direction of the last key. Money sorts by its amount, a picklist (stage) by
 * its value's place among the field's options.
 */
function expectedOrder(sort: string): number[] {
  const keys = sort.split(',').map((k) => ({ field: k.replace(/^-/, ''), desc: k.startsWith('-') }));
  keys.push({ field: 'id', desc: keys.at(-1)?.desc ?? false });
  const value = (row: Row, field: string) => {
    const v = row[field];
    if (field === 'stage' && typeof v === 'string') return companyStages.indexOf(v as (typeof companyStages)[number]);
    return v !== null && typeof v === 'object' ? (v as { amount: number }).amount : (v as string | number | null);
  };
  return [...rows]
    .sort((a, b) => {
      for (const k of keys) {
        const x = value(a, k.field);
        const y = value(b, k.field);
        if (x === y) continue;
        if (x === null) return k.desc ? -1 : 1;
        if (y === null) return k.desc ? 1 : -1;
        return (x < y ? -1 : 1) * (k.desc ? -1 : 1);
      }
      return 0;
    })
    .map((r) => r.id);
}

async function ids(query: Record<string, string | number>): Promise<number[]> {
  const answer = await api.list('/api/v1/companies', { ...scope, pageSize: 1000, select: 'name', ...query });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data.map((r) => r.id);
}

/** Follows nextCursor from the first page to the last, answering every id seen in order. */
async function walk(query: Record<string, string | number>, pageSize: number, path = '/api/v1/companies') {
  const seen: number[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const answer = await api.list(path, { ...query, pageSize, cursor });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.length).toBeLessThanOrEqual(pageSize);
    if (answer.body.nextCursor) expect(answer.body.data).toHaveLength(pageSize);
    seen.push(...answer.body.data.map((r) => r.id));
    cursor = answer.body.nextCursor ?? undefined;
    pages += 1;
  } while (cursor && pages < 100);
  return { seen, pages };
}

const sorts = [
  'name',
  '-name',
  'employees',
  '-employees',
  'city,-employees',
  '-city,employees',
  'stage,city,-revenue',
  '-revenue,name',
  'revenue,-stage',
  '-createdAt',
  '-id',
];

describe('sort', () => {
  it('uses the default sort (name, then id) when none is given', async () => {
    expect(await ids({})).toEqual(expectedOrder('name'));
  });

  it.each(sorts)('sort=%s orders by every key, empty values last ascending and first descending', async (sort) => {
    expect(await ids({ sort })).toEqual(expectedOrder(sort));
  });

  it('breaks ties by id, in the direction of the last key, so the order is stable', async () => {
    const ascending = await ids({ sort: 'stage' });
    const seed = rows.filter((r) => r.stage === 'Seed').map((r) => r.id);
    expect(ascending.filter((id) => seed.includes(id))).toEqual([...seed].sort((a, b) => a - b));
    const descending = await ids({ sort: '-stage' });
    expect(descending.filter((id) => seed.includes(id))).toEqual([...seed].sort((a, b) => b - a));
    expect(await ids({ sort: 'stage' })).toEqual(ascending);
  });
});

describe('offset paging', () => {
  it('page and pageSize cut the same order into pages', async () => {
    const order = expectedOrder('city,-employees');
    const pages: number[] = [];
    for (let page = 1; page <= 5; page++) {
      const answer = await api.list('/api/v1/companies', {
        ...scope,
        sort: 'city,-employees',
        page,
        pageSize: 10,
        count: 'exact',
      });
      expect(answer.body).toMatchObject({ page, pageSize: 10, total: COUNT, totalExact: true });
      pages.push(...answer.body.data.map((r) => r.id));
    }
    expect(pages).toEqual(order);
  });

  it('a page past the end is empty but still counts', async () => {
    const answer = await api.list('/api/v1/companies', { ...scope, page: 100, pageSize: 10, count: 'exact' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ data: [], page: 100, total: COUNT, nextCursor: null });
  });

  it('defaults to page 1 of 50 rows, without a total', async () => {
    const answer = await api.list('/api/v1/companies', scope);
    expect(answer.body).toMatchObject({ page: 1, pageSize: 50, total: null, totalExact: null });
    expect(answer.body.data).toHaveLength(COUNT);
    expect(answer.body.nextCursor).toBeNull();
  });
});

describe('cursor paging', () => {
  it.each(sorts)('sort=%s: walks every row exactly once, in order', async (sort) => {
    const { seen, pages } = await walk({ ...scope, sort, select: 'name' }, 7);
    expect(seen).toEqual(expectedOrder(sort));
    expect(new Set(seen).size).toBe(COUNT);
    expect(pages).toBe(Math.ceil(COUNT / 7));
  });

  it('walks with the default sort and a page size that divides the rows evenly', async () => {
    const first = await api.list('/api/v1/companies', { ...scope, pageSize: COUNT });
    expect(first.body.nextCursor).toBeNull();
    const { seen } = await walk(scope, 1);
    expect(seen).toEqual(expectedOrder('name'));
  });

  it('continues with the filter it was given', async () => {
    const filtered = { ...scope, 'filter[employees][notNull]': '', sort: '-employees,city' };
    const { seen } = await walk(filtered, 4);
    const expected = expectedOrder('-employees,city').filter((id) => rows.find((r) => r.id === id)?.employees !== null);
    expect(seen).toEqual(expected);
  });

  it('ignores page when a cursor is given', async () => {
    const first = await api.list('/api/v1/companies', { ...scope, pageSize: 5, sort: 'name' });
    const second = await api.list('/api/v1/companies', {
      ...scope,
      pageSize: 5,
      sort: 'name',
      page: 7,
      cursor: first.body.nextCursor ?? '',
    });
    expect(second.body.data.map((r) => r.id)).toEqual(expectedOrder('name').slice(5, 10));
  });

  it('works through POST /query too', async () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const answer = await api.query('/api/v1/companies', {
        where: { field: 'tags', op: 'contains', value: 'paging' },
        sort: ['-city', 'revenue'],
        pageSize: 6,
        cursor,
      });
      expect(answer.status).toBe(200);
      seen.push(...answer.body.data.map((r) => r.id));
      cursor = answer.body.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(expectedOrder('-city,revenue'));
  });

  it('walks a list sorted by a yes/no field', async () => {
    for (const name of ['Analyst', 'Intern', 'Partner']) {
      expect((await api.post('/api/v1/roles', { name, permissions: [] })).status).toBe(201);
    }
    const all = await api.list('/api/v1/roles', { pageSize: 1000, sort: '-builtIn,name', select: 'builtIn' });
    expect(new Set(all.body.data.map((r) => r.builtIn))).toEqual(new Set([true, false]));
    const { seen } = await walk({ sort: '-builtIn,name', select: 'name' }, 2, '/api/v1/roles');
    expect(seen).toEqual(all.body.data.map((r) => r.id));
  });

  it('refuses a cursor from another order, or one that is not a cursor', async () => {
    const first = await api.list('/api/v1/companies', { ...scope, pageSize: 5, sort: 'name' });
    const cursor = first.body.nextCursor as string;
    const other = await api.list('/api/v1/companies', { ...scope, pageSize: 5, sort: '-name', cursor });
    expect(other.status).toBe(400);
    expect(errorOf(other)).toMatchObject({ code: 'validation_failed', fields: { cursor: expect.any(String) } });
    for (const bad of [
      'not-a-cursor',
      Buffer.from('{"o":"name,id","v":[1]}').toString('base64url'),
      Buffer.from('[1,2]').toString('base64url'),
      Buffer.from('{"o":"name,id","v":[{"x":1},2]}').toString('base64url'),
      Buffer.from('{"o":"name,id","v":["Company 001","7"]}').toString('base64url'),
      Buffer.from('{"o":"name,id","v":[5,7]}').toString('base64url'),
      '%%%',
    ]) {
      const answer = await api.list('/api/v1/companies', { ...scope, pageSize: 5, sort: 'name', cursor: bad });
      expect(answer.status, bad).toBe(400);
      expect(errorOf(answer).fields).toHaveProperty('cursor');
    }
  });
});

describe('totals', () => {
  it('counts exactly with filters when asked, and only then', async () => {
    const query = { ...scope, 'filter[city][eq]': 'Boston', pageSize: 1 };
    const filtered = await api.list('/api/v1/companies', { ...query, count: 'exact' });
    expect(filtered.body).toMatchObject({
      total: rows.filter((r) => r.city === 'Boston').length,
      totalExact: true,
    });
    expect(filtered.body.data).toHaveLength(1);
    expect((await api.list('/api/v1/companies', query)).body).toMatchObject({ total: null, totalExact: null });
  });

  it('pages far by offset', async () => {
    // Made with one statement rather than 10,001 requests: this test is about paging, not creating.
    await server.database.rows(
      sql`insert into investors (name) select 'Bulk ' || lpad(g::text, 5, '0') from generate_series(1, 10001) g`,
    );
    const first = await api.list('/api/v1/investors', { pageSize: 3, select: 'name' });
    expect(first.body.data.map((r) => r.name)).toEqual(['Bulk 00001', 'Bulk 00002', 'Bulk 00003']);
    const deep = await api.list('/api/v1/investors', { pageSize: 2, page: 5001, select: 'name' });
    expect(deep.body.data.map((r) => r.name)).toEqual(['Bulk 10001']);
  });

  it('pages a relation list by offset, each row with its link', async () => {
    const make = factories(api);
    const deal = await make.deal();
    for (const role of ['A', 'B', 'C', 'D', 'E']) {
      const contact = await make.contact();
      await make.link('contactDeals', { contactId: contact.id, dealId: deal.id, role });
    }
    const path = `/api/v1/deals/${deal.id}/contacts`;
    const all = await api.list(path, { pageSize: 100, sort: 'id' });
    const pages: Row[] = [];
    for (const page of [1, 2, 3]) pages.push(...(await api.list(path, { pageSize: 2, page, sort: 'id' })).body.data);
    expect(pages).toEqual(all.body.data);
    expect(pages.map((row) => (row.link as { role: string }).role)).toEqual(['A', 'B', 'C', 'D', 'E']);
  });
});

describe('search', () => {
  beforeAll(async () => {
    const make = factories(api);
    for (const name of ['Big Acme', 'Acme Corp', 'Zeta', 'Acme', 'acme labs', '100% Fun', 'Other']) {
      await make.firm({ name, website: name === 'Zeta' ? 'https://acme-partners.example' : undefined });
    }
  });

  const search = async (query: Record<string, string>) => {
    const answer = await api.list('/api/v1/firms', { select: 'name', ...query });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data.map((r) => r.name);
  };

  it('ranks the exact name first, then names that start with it, then other matches', async () => {
    expect(await search({ q: 'acme' })).toEqual(['Acme', 'Acme Corp', 'acme labs', 'Big Acme', 'Zeta']);
    expect(await search({ q: 'ACME CORP' })).toEqual(['Acme Corp']);
  });

  it('keeps the requested order when a sort is given', async () => {
    expect(await search({ q: 'acme', sort: '-id' })).toEqual(['acme labs', 'Acme', 'Zeta', 'Acme Corp', 'Big Acme']);
  });

  it('searches literally and combines with filters and paging', async () => {
    expect(await search({ q: '%' })).toEqual(['100% Fun']);
    expect(await search({ q: 'acme', 'filter[name][ne]': 'Acme' })).toEqual([
      'Acme Corp',
      'acme labs',
      'Big Acme',
      'Zeta',
    ]);
    const seen: unknown[] = [];
    let cursor: string | undefined;
    do {
      const answer = await api.list('/api/v1/firms', {
        q: 'acme',
        select: 'name',
        pageSize: 2,
        cursor,
        count: 'exact',
      });
      expect(answer.body.total).toBe(5);
      seen.push(...answer.body.data.map((r) => r.name));
      cursor = answer.body.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(['Acme', 'Acme Corp', 'acme labs', 'Big Acme', 'Zeta']);
    expect(await search({ q: '   ' })).toHaveLength(7);
  });
});

describe('select', () => {
  it('answers only id and the selected fields', async () => {
    const answer = await api.list('/api/v1/companies', { ...scope, select: 'name,revenue,tags', pageSize: 100 });
    for (const row of answer.body.data) expect(Object.keys(row).sort()).toEqual(['id', 'name', 'revenue', 'tags']);
    const withRevenue = answer.body.data.find((r) => r.revenue !== null);
    expect(withRevenue?.revenue).toEqual({
      amount: expect.any(Number),
      currency: expect.stringMatching(/^(USD|EUR)$/),
    });
    const only = await api.list('/api/v1/companies', { ...scope, select: 'id', pageSize: 1 });
    expect(only.body.data).toEqual([{ id: expect.any(Number) }]);
  });

  it('answers every field without select, and select works on one record', async () => {
    const full = await api.get(`/api/v1/companies/${rows[0]?.id}`);
    expect(full.status).toBe(200);
    expect(Object.keys(full.body)).toEqual(expect.arrayContaining(['id', 'version', 'createdAt', 'name', 'tags']));
    expect(full.headers.get('etag')).toBe(`"${full.body.version}"`);
    const one = await api.get(`/api/v1/companies/${rows[0]?.id}`, { select: 'name,city' });
    expect(Object.keys(one.body).sort()).toEqual(['city', 'id', 'name']);
    // The ETag is the version the answer holds: none when the selection leaves it out.
    expect(one.headers.get('etag')).toBeNull();
    const versioned = await api.get(`/api/v1/companies/${rows[0]?.id}`, { select: 'name,version' });
    expect(versioned.headers.get('etag')).toBe(`"${full.body.version}"`);
  });
});
