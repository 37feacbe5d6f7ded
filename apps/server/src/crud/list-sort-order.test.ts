import { companyStages } from '@data-platform/shared/entities/picklists';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, adminClient, factories, type Row, unique } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * Picklists sort by their defined order (the options of the description or of
 * the custom field definition), references by the label of the record they
 * point to (a country's name, an owner's name); both page by cursor.
 */

let server: TestServer;
let api: ApiClient;
let rows: Row[];
const tag = unique('sortorder').replace(/\W/g, '');
const scope = { 'filter[tags][contains]': tag };
/** A custom picklist whose options are not in the alphabet's order. */
const customOptions = ['Zulu', 'Alpha', 'Mike'];
let customKey: string;
const countryNames = new Map<number, string>();
const userNames = new Map<number, string>();

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  const make = factories(api);
  const countries = await server.database.rows<{ id: number; name: string }>(
    sql`select id::int as id, name from countries where iso2 in ('US', 'FR', 'BR', 'DE', 'JP') order by iso2`,
  );
  expect(countries).toHaveLength(5);
  for (const c of countries) countryNames.set(c.id, c.name);
  const users = await server.database.rows<{ id: number; full_name: string }>(sql`
    insert into users (email, first_name, last_name, status)
    values (${`${tag}-z@example.com`}, 'Zoe', 'Adams', 'active'), (${`${tag}-a@example.com`}, 'Abel', 'Young', 'active'),
      (${`${tag}-m@example.com`}, 'Mia', 'Kent', 'active')
    returning id::int as id, full_name`);
  for (const u of users) userNames.set(u.id, u.full_name);
  const defined = await api.post('/api/v1/custom-data', {
    entity: 'companies',
    name: unique('Tier'),
    type: 'select',
    options: customOptions,
  });
  expect(defined.status, JSON.stringify(defined.body)).toBe(201);
  customKey = (defined.body as Row).key as string;
  const stages = ['Seed', 'Acquired', null, 'Series A', 'Pre-seed', 'Growth', 'Seed'];
  const countryIds = [...countryNames.keys(), null];
  const userIds = [...userNames.keys(), null];
  const tiers = [...customOptions, null];
  for (let i = 0; i < 23; i++) {
    await make.company({
      name: `Sorted ${String((i * 7) % 23).padStart(2, '0')}`,
      stage: stages[i % stages.length],
      status: ['Prospect', 'Active', 'Portfolio', 'Exited', 'Passed'][i % 5],
      hqCountryId: countryIds[i % countryIds.length],
      ownerId: userIds[(i * 3) % userIds.length],
      [customKey]: tiers[i % tiers.length],
      tags: [tag],
    });
  }
  const all = await api.list('/api/v1/companies', { ...scope, pageSize: 1000 });
  rows = all.body.data;
  expect(rows).toHaveLength(23);
});

afterAll(async () => server?.close());

/** What each field sorts by, as the documentation says: an option's position, a referenced record's label. */
function sortValue(row: Row, field: string): string | number | null {
  const v = row[field] as string | number | null;
  if (v === null) return null;
  if (field === 'stage') return companyStages.indexOf(v as (typeof companyStages)[number]);
  if (field === 'status') return ['Prospect', 'Active', 'Portfolio', 'Exited', 'Passed'].indexOf(v as string);
  if (field === customKey) return customOptions.indexOf(v as string);
  if (field === 'hqCountryId') return countryNames.get(v as number) ?? null;
  if (field === 'ownerId') return userNames.get(v as number) ?? null;
  return v;
}

/** The documented order: each key, empty values last ascending and first descending, then id. */
function expectedOrder(sort: string): number[] {
  const keys = sort.split(',').map((k) => ({ field: k.replace(/^-/, ''), desc: k.startsWith('-') }));
  keys.push({ field: 'id', desc: keys.at(-1)?.desc ?? false });
  return [...rows]
    .sort((a, b) => {
      for (const k of keys) {
        const x = sortValue(a, k.field);
        const y = sortValue(b, k.field);
        if (x === y) continue;
        if (x === null) return k.desc ? -1 : 1;
        if (y === null) return k.desc ? 1 : -1;
        return (x < y ? -1 : 1) * (k.desc ? -1 : 1);
      }
      return 0;
    })
    .map((r) => r.id);
}

async function walk(sort: string, pageSize: number): Promise<number[]> {
  const seen: number[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const answer = await api.list('/api/v1/companies', { ...scope, sort, pageSize, cursor, select: 'name' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    seen.push(...answer.body.data.map((r) => r.id));
    cursor = answer.body.nextCursor ?? undefined;
    pages += 1;
  } while (cursor && pages < 100);
  return seen;
}

const sorts = () => [
  'stage',
  '-stage',
  'status,-name',
  customKey,
  `-${customKey},name`,
  'hqCountryId',
  '-hqCountryId,name',
  'ownerId',
  '-ownerId',
  'stage,ownerId',
];

describe('picklists in their defined order', () => {
  it('a stage sorts Pre-seed, Seed, Series A, ... Acquired, not alphabetically', async () => {
    const answer = await api.list('/api/v1/companies', { ...scope, sort: 'stage', pageSize: 1000, select: 'stage' });
    expect(answer.status).toBe(200);
    const stages = [...new Set(answer.body.data.map((r) => r.stage))];
    expect(stages).toEqual(['Pre-seed', 'Seed', 'Series A', 'Growth', 'Acquired', null]);
  });
});

describe('references by their label', () => {
  it('HQ country and owner are sortable, by country name and owner name', async () => {
    const byCountry = await api.list('/api/v1/companies', { ...scope, sort: 'hqCountryId', pageSize: 1000 });
    expect(byCountry.status, JSON.stringify(byCountry.body)).toBe(200);
    const names = byCountry.body.data.map((r) => countryNames.get(r.hqCountryId as number) ?? null);
    expect(names.filter(Boolean)).toEqual([...names.filter(Boolean)].sort());
    expect(names.at(-1)).toBeNull();
    const byOwner = await api.list('/api/v1/companies', { ...scope, sort: 'ownerId', pageSize: 1000 });
    expect(byOwner.status, JSON.stringify(byOwner.body)).toBe(200);
    expect(byOwner.body.data.map((r) => r.id)).toEqual(expectedOrder('ownerId'));
  });
});

describe('sorts and cursors', () => {
  it('each sort gives the documented order, and a cursor walk gives the same order', async () => {
    for (const sort of sorts()) {
      const whole = await api.list('/api/v1/companies', { ...scope, sort, pageSize: 1000, select: 'name' });
      expect(whole.status, `${sort}: ${JSON.stringify(whole.body)}`).toBe(200);
      expect(
        whole.body.data.map((r) => r.id),
        sort,
      ).toEqual(expectedOrder(sort));
      expect(await walk(sort, 2), sort).toEqual(expectedOrder(sort));
      expect(await walk(sort, 5), sort).toEqual(expectedOrder(sort));
    }
  });

  it('offset pages cut the same order', async () => {
    const pages: number[] = [];
    for (let page = 1; page <= 5; page++) {
      const answer = await api.list('/api/v1/companies', { ...scope, sort: '-ownerId,stage', page, pageSize: 5 });
      expect(answer.status).toBe(200);
      pages.push(...answer.body.data.map((r) => r.id));
    }
    expect(pages).toEqual(expectedOrder('-ownerId,stage'));
  });
});
