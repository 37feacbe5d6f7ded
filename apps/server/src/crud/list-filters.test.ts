import { companies as companyDescription } from '@data-platform/shared/entities/companies';
import { MAX_CONDITIONS, MAX_FILTER_DEPTH } from '@data-platform/shared/query/list-query';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, adminClient, errorOf, factories, type Row } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { getSql } from './list-compiler.ts';

/**
 * Every filter operator on every field type it applies to, over HTTP. The
 * records are made once; tests only read, so each expects exact results.
 */

let server: TestServer;
let api: ApiClient;
const country: Record<string, number> = {};
const firm: Record<string, Row> = {};
let alpha: Row;

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  const make = factories(api);
  const found = await api.list('/api/v1/countries', { 'filter[iso2][in]': 'US,FR,DE', select: 'iso2' });
  for (const row of found.body.data) country[row.iso2 as string] = row.id;

  alpha = await make.company({
    name: 'Alpha One',
    legalName: 'Alpha Holdings Ltd',
    website: 'https://www.alpha.example/home',
    description: 'Payments for small shops',
    stage: 'Seed',
    hqCountryId: country.US,
    city: 'Boston',
    foundedYear: 2001,
    employees: 10,
    revenue: { amount: 1_000_000, currency: 'USD' },
    tags: ['fintech', 'b2b'],
  });
  await make.company({
    name: 'Beta Two',
    website: 'https://beta.example/about',
    description: 'Industrial robots',
    stage: 'Series A',
    hqCountryId: country.FR,
    foundedYear: 2015,
    employees: 250,
    revenue: { amount: 5_000_000, currency: 'EUR' },
    tags: ['b2b'],
  });
  await make.company({ name: 'Gamma_% Three', city: 'Berlin' });
  await make.company({
    name: 'Delta Four',
    stage: 'Series B',
    hqCountryId: country.US,
    city: 'Chicago',
    foundedYear: 2020,
    employees: 0,
    revenue: { amount: 250_000.5, currency: 'USD' },
    tags: ['fintech'],
  });

  firm.north = await make.firm({
    name: 'Northwind Capital',
    strategies: ['Venture Capital', 'Growth'],
    aum: { amount: 2e9, currency: 'USD' },
  });
  firm.south = await make.firm({ name: 'Southwind Partners', strategies: ['Buyout'] });
  firm.east = await make.firm({ name: 'Eastwind' });

  await make.contact({
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@analytical.example',
    otherEmails: ['ada@home.example'],
    phone: '+44 20 7946 0000',
    firmId: firm.north.id,
  });
  await make.contact({ firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.example', phone: '+1 202 555 0100' });
  await make.contact({ firstName: 'Alan', lastName: 'Turing', email: null });

  const fundOne = await make.fund({
    name: 'Northwind I',
    firmId: firm.north.id,
    currency: 'USD',
    targetSize: 100_000_000,
    carryPct: 20,
    vintageYear: 2019,
    firstCloseDate: '2019-03-01',
    geographyFocus: ['Europe', 'Nordics'],
  });
  await make.fund({
    name: 'Northwind II',
    firmId: firm.north.id,
    currency: 'EUR',
    targetSize: 250_000_000,
    carryPct: 25,
    vintageYear: 2022,
    firstCloseDate: '2022-09-15',
    geographyFocus: ['North America'],
  });
  await make.fund({ name: 'Lone Fund', currency: 'GBP' });
  await make.fundPerformance(fundOne.id, { asOfDate: '2024-03-31', paidIn: 100, distributed: 50, nav: 80 });
  await make.fundPerformance(fundOne.id, { asOfDate: '2024-06-30', paidIn: 100, distributed: 120, nav: 10 });

  await make.deal({ name: 'Deal A', expectedCloseDate: '2024-01-15', ownershipPct: 12.5 });
  await make.deal({ name: 'Deal B', expectedCloseDate: '2024-06-30', ownershipPct: 30 });
  await make.deal({ name: 'Deal C' });
});

afterAll(async () => server?.close());

/** The display values of the matching rows, in creation (id) order. */
async function matching(resource: string, query: Record<string, string>, display = 'name'): Promise<unknown[]> {
  const answer = await api.list(`/api/v1/${resource}`, {
    select: display,
    sort: 'id',
    pageSize: 1000,
    count: 'exact',
    ...query,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.total).toBe(answer.body.data.length);
  return answer.body.data.map((row) => row[display]);
}

const companies = (query: Record<string, string>) => matching('companies', query);

describe('text fields', () => {
  it('eq matches the exact text, ne keeps empty values', async () => {
    expect(await companies({ 'filter[name][eq]': 'Delta Four' })).toEqual(['Delta Four']);
    expect(await companies({ 'filter[name][eq]': 'delta four' })).toEqual([]);
    expect(await companies({ 'filter[city][ne]': 'Boston' })).toEqual(['Beta Two', 'Gamma_% Three', 'Delta Four']);
  });

  it('lt, lte, gt and gte compare text', async () => {
    expect(await companies({ 'filter[city][lt]': 'Boston' })).toEqual(['Gamma_% Three']);
    expect(await companies({ 'filter[city][lte]': 'Boston' })).toEqual(['Alpha One', 'Gamma_% Three']);
    expect(await companies({ 'filter[city][gt]': 'Boston' })).toEqual(['Delta Four']);
    expect(await companies({ 'filter[city][gte]': 'Boston' })).toEqual(['Alpha One', 'Delta Four']);
  });

  it('in matches any of comma-separated values', async () => {
    expect(await companies({ 'filter[city][in]': 'Chicago,Boston,Paris' })).toEqual(['Alpha One', 'Delta Four']);
  });

  it('contains and startsWith ignore case and treat % and _ as plain characters', async () => {
    expect(await companies({ 'filter[name][contains]': 'ALPHA' })).toEqual(['Alpha One']);
    expect(await companies({ 'filter[name][contains]': '_%' })).toEqual(['Gamma_% Three']);
    expect(await companies({ 'filter[name][contains]': '%' })).toEqual(['Gamma_% Three']);
    expect(await companies({ 'filter[name][startsWith]': 'be' })).toEqual(['Beta Two']);
    expect(await companies({ 'filter[name][startsWith]': '_' })).toEqual([]);
    expect(await companies({ 'filter[name][startsWith]': 'Two' })).toEqual([]);
  });

  it('isNull and notNull find empty and filled values', async () => {
    expect(await companies({ 'filter[city][isNull]': '' })).toEqual(['Beta Two']);
    expect(await companies({ 'filter[city][notNull]': 'true' })).toEqual(['Alpha One', 'Gamma_% Three', 'Delta Four']);
    expect(await companies({ 'filter[legalName][notNull]': '' })).toEqual(['Alpha One']);
  });

  it('long text, web addresses and the domain derived from them', async () => {
    expect(await companies({ 'filter[description][contains]': 'ROBOT' })).toEqual(['Beta Two']);
    expect(await companies({ 'filter[description][startsWith]': 'payments' })).toEqual(['Alpha One']);
    expect(await companies({ 'filter[description][isNull]': '' })).toEqual(['Gamma_% Three', 'Delta Four']);
    expect(await companies({ 'filter[website][contains]': 'alpha.example' })).toEqual(['Alpha One']);
    expect(await companies({ 'filter[domain][eq]': 'alpha.example' })).toEqual(['Alpha One']);
    expect(await companies({ 'filter[domain][in]': 'alpha.example,beta.example' })).toEqual(['Alpha One', 'Beta Two']);
  });

  it('emails and phones', async () => {
    const contacts = (query: Record<string, string>) => matching('contacts', query, 'fullName');
    expect(await contacts({ 'filter[email][eq]': 'grace@navy.example' })).toEqual(['Grace Hopper']);
    expect(await contacts({ 'filter[email][startsWith]': 'ADA@' })).toEqual(['Ada Lovelace']);
    expect(await contacts({ 'filter[email][isNull]': '' })).toEqual(['Alan Turing']);
    expect(await contacts({ 'filter[phone][startsWith]': '+1' })).toEqual(['Grace Hopper']);
    expect(await contacts({ 'filter[phone][contains]': '7946' })).toEqual(['Ada Lovelace']);
    expect(await contacts({ 'filter[fullName][eq]': 'Ada Lovelace' })).toEqual(['Ada Lovelace']);
  });
});

describe('number fields', () => {
  it('integers with every comparison', async () => {
    expect(await companies({ 'filter[employees][eq]': '10' })).toEqual(['Alpha One']);
    expect(await companies({ 'filter[employees][ne]': '10' })).toEqual(['Beta Two', 'Gamma_% Three', 'Delta Four']);
    expect(await companies({ 'filter[employees][lt]': '10' })).toEqual(['Delta Four']);
    expect(await companies({ 'filter[employees][lte]': '10' })).toEqual(['Alpha One', 'Delta Four']);
    expect(await companies({ 'filter[employees][gt]': '10' })).toEqual(['Beta Two']);
    expect(await companies({ 'filter[employees][gte]': '0' })).toEqual(['Alpha One', 'Beta Two', 'Delta Four']);
    expect(await companies({ 'filter[employees][in]': '0,250' })).toEqual(['Beta Two', 'Delta Four']);
    expect(await companies({ 'filter[employees][isNull]': '' })).toEqual(['Gamma_% Three']);
    expect(await companies({ 'filter[employees][notNull]': '' })).toEqual(['Alpha One', 'Beta Two', 'Delta Four']);
  });

  it('years', async () => {
    expect(await companies({ 'filter[foundedYear][gte]': '2010' })).toEqual(['Beta Two', 'Delta Four']);
    expect(await companies({ 'filter[foundedYear][lt]': '2010' })).toEqual(['Alpha One']);
    expect(await matching('funds', { 'filter[vintageYear][in]': '2019,2022' })).toEqual([
      'Northwind I',
      'Northwind II',
    ]);
  });

  it('decimals and percentages, stored and derived', async () => {
    expect(await matching('deals', { 'filter[ownershipPct][eq]': '12.5' })).toEqual(['Deal A']);
    expect(await matching('deals', { 'filter[ownershipPct][gt]': '12.5' })).toEqual(['Deal B']);
    expect(await matching('deals', { 'filter[ownershipPct][lte]': '12.5' })).toEqual(['Deal A']);
    expect(await matching('deals', { 'filter[ownershipPct][in]': '12.5,30' })).toEqual(['Deal A', 'Deal B']);
    expect(await matching('deals', { 'filter[ownershipPct][isNull]': '' })).toEqual(['Deal C']);
    expect(await matching('funds', { 'filter[carryPct][gte]': '25' })).toEqual(['Northwind II']);
    const dpi = await matching('fundPerformances', { 'filter[dpi][gte]': '1' }, 'asOfDate');
    expect(dpi).toEqual(['2024-06-30']);
    const rvpi = await matching('fundPerformances', { 'filter[rvpi][eq]': '0.8' }, 'asOfDate');
    expect(rvpi).toEqual(['2024-03-31']);
  });

  it('amounts', async () => {
    expect(await matching('funds', { 'filter[targetSize][gt]': '100000000' })).toEqual(['Northwind II']);
    expect(await matching('funds', { 'filter[targetSize][isNull]': '' })).toEqual(['Lone Fund']);
    expect(await matching('fundPerformances', { 'filter[paidIn][eq]': '100' }, 'asOfDate')).toEqual([
      '2024-03-31',
      '2024-06-30',
    ]);
  });

  it('money filters by its amount, whatever the currency', async () => {
    expect(await companies({ 'filter[revenue][eq]': '1000000' })).toEqual(['Alpha One']);
    expect(await companies({ 'filter[revenue][ne]': '1000000' })).toEqual(['Beta Two', 'Gamma_% Three', 'Delta Four']);
    expect(await companies({ 'filter[revenue][gt]': '1000000' })).toEqual(['Beta Two']);
    expect(await companies({ 'filter[revenue][gte]': '1e6' })).toEqual(['Alpha One', 'Beta Two']);
    expect(await companies({ 'filter[revenue][lt]': '1000000' })).toEqual(['Delta Four']);
    expect(await companies({ 'filter[revenue][lte]': '250000.5' })).toEqual(['Delta Four']);
    expect(await companies({ 'filter[revenue][in]': '250000.5,5000000' })).toEqual(['Beta Two', 'Delta Four']);
    expect(await companies({ 'filter[revenue][isNull]': '' })).toEqual(['Gamma_% Three']);
    expect(await companies({ 'filter[revenue][notNull]': '' })).toEqual(['Alpha One', 'Beta Two', 'Delta Four']);
    expect(await matching('firms', { 'filter[aum][gte]': '1000000000' })).toEqual(['Northwind Capital']);
  });
});

describe('dates', () => {
  const deals = (query: Record<string, string>) => matching('deals', query);

  it('dates with every comparison', async () => {
    expect(await deals({ 'filter[expectedCloseDate][eq]': '2024-01-15' })).toEqual(['Deal A']);
    expect(await deals({ 'filter[expectedCloseDate][ne]': '2024-01-15' })).toEqual(['Deal B', 'Deal C']);
    expect(await deals({ 'filter[expectedCloseDate][lt]': '2024-06-30' })).toEqual(['Deal A']);
    expect(await deals({ 'filter[expectedCloseDate][lte]': '2024-06-30' })).toEqual(['Deal A', 'Deal B']);
    expect(await deals({ 'filter[expectedCloseDate][gt]': '2024-01-15' })).toEqual(['Deal B']);
    expect(await deals({ 'filter[expectedCloseDate][gte]': '2024-01-15' })).toEqual(['Deal A', 'Deal B']);
    expect(await deals({ 'filter[expectedCloseDate][in]': '2024-06-30,2030-01-01' })).toEqual(['Deal B']);
    expect(await deals({ 'filter[expectedCloseDate][isNull]': '' })).toEqual(['Deal C']);
    expect(await deals({ 'filter[expectedCloseDate][notNull]': '' })).toEqual(['Deal A', 'Deal B']);
  });

  it('date-times take a date or the exact time the API answered', async () => {
    const all = ['Alpha One', 'Beta Two', 'Gamma_% Three', 'Delta Four'];
    expect(await companies({ 'filter[createdAt][gte]': '2000-01-01' })).toEqual(all);
    expect(await companies({ 'filter[createdAt][lt]': '2000-01-01T00:00:00Z' })).toEqual([]);
    expect(await companies({ 'filter[createdAt][gt]': alpha.createdAt as string })).toEqual(all.slice(1));
    expect(await companies({ 'filter[createdAt][lte]': alpha.createdAt as string })).toEqual(['Alpha One']);
    expect(await companies({ 'filter[updatedAt][eq]': alpha.updatedAt as string })).toEqual(['Alpha One']);
  });
});

describe('picklists', () => {
  it('select fields with eq, ne, in, isNull and notNull', async () => {
    expect(await companies({ 'filter[stage][eq]': 'Seed' })).toEqual(['Alpha One']);
    expect(await companies({ 'filter[stage][ne]': 'Seed' })).toEqual(['Beta Two', 'Gamma_% Three', 'Delta Four']);
    expect(await companies({ 'filter[stage][in]': 'Seed,Series A' })).toEqual(['Alpha One', 'Beta Two']);
    expect(await companies({ 'filter[stage][isNull]': '' })).toEqual(['Gamma_% Three']);
    expect(await companies({ 'filter[stage][notNull]': '' })).toEqual(['Alpha One', 'Beta Two', 'Delta Four']);
  });

  it('currencies', async () => {
    expect(await matching('funds', { 'filter[currency][eq]': 'EUR' })).toEqual(['Northwind II']);
    expect(await matching('funds', { 'filter[currency][ne]': 'USD' })).toEqual(['Northwind II', 'Lone Fund']);
    expect(await matching('funds', { 'filter[currency][in]': 'GBP,USD' })).toEqual(['Northwind I', 'Lone Fund']);
  });

  it('several values (tags, multi-select, emails): contains one, in any of, isNull when empty', async () => {
    expect(await companies({ 'filter[tags][contains]': 'fintech' })).toEqual(['Alpha One', 'Delta Four']);
    expect(await companies({ 'filter[tags][in]': 'b2b,unused' })).toEqual(['Alpha One', 'Beta Two']);
    expect(await companies({ 'filter[tags][isNull]': '' })).toEqual(['Gamma_% Three']);
    expect(await companies({ 'filter[tags][notNull]': '' })).toEqual(['Alpha One', 'Beta Two', 'Delta Four']);
    expect(await matching('firms', { 'filter[strategies][contains]': 'Growth' })).toEqual(['Northwind Capital']);
    expect(await matching('firms', { 'filter[strategies][in]': 'Buyout,Growth' })).toEqual([
      'Northwind Capital',
      'Southwind Partners',
    ]);
    expect(await matching('firms', { 'filter[strategies][isNull]': '' })).toEqual(['Eastwind']);
    expect(await matching('funds', { 'filter[geographyFocus][contains]': 'Nordics' })).toEqual(['Northwind I']);
    const contacts = (query: Record<string, string>) => matching('contacts', query, 'fullName');
    expect(await contacts({ 'filter[otherEmails][contains]': 'ada@home.example' })).toEqual(['Ada Lovelace']);
    expect(await contacts({ 'filter[otherEmails][isNull]': '' })).toEqual(['Grace Hopper', 'Alan Turing']);
  });
});

describe('yes/no fields', () => {
  it('eq, ne, isNull and notNull on booleans', async () => {
    expect((await api.post('/api/v1/roles', { name: 'Analyst', permissions: [] })).status).toBe(201);
    const roles = (query: Record<string, string>) => matching('roles', query);
    expect(await roles({ 'filter[builtIn][eq]': 'false' })).toEqual(['Analyst']);
    expect(await roles({ 'filter[builtIn][ne]': 'true' })).toEqual(['Analyst']);
    expect(await roles({ 'filter[builtIn]': 'true' })).toEqual(['Administrator', 'Editor', 'Viewer']);
    expect(await roles({ 'filter[builtIn][isNull]': '' })).toEqual([]);
    const bad = await api.list('/api/v1/roles', { 'filter[builtIn][eq]': 'yes' });
    expect(bad.status).toBe(400);
  });
});

describe('references', () => {
  it('reference ids with eq, ne, in, isNull and notNull', async () => {
    const us = String(country.US);
    expect(await companies({ 'filter[hqCountryId][eq]': us })).toEqual(['Alpha One', 'Delta Four']);
    expect(await companies({ 'filter[hqCountryId][ne]': us })).toEqual(['Beta Two', 'Gamma_% Three']);
    expect(await companies({ 'filter[hqCountryId][in]': `${country.FR},${country.DE}` })).toEqual(['Beta Two']);
    expect(await companies({ 'filter[hqCountryId][isNull]': '' })).toEqual(['Gamma_% Three']);
    expect(await companies({ 'filter[hqCountryId][notNull]': '' })).toEqual(['Alpha One', 'Beta Two', 'Delta Four']);
    expect(await matching('funds', { 'filter[firmId][eq]': String(firm.north?.id) })).toEqual([
      'Northwind I',
      'Northwind II',
    ]);
    expect(await matching('funds', { 'filter[firmId][isNull]': '' })).toEqual(['Lone Fund']);
    expect(await companies({ 'filter[id][in]': `${alpha.id},999999` })).toEqual(['Alpha One']);
    // Every record names who created it: here the test administrator.
    expect(await companies({ 'filter[createdById][notNull]': '' })).toHaveLength(4);
    expect(await companies({ 'filter[createdById][isNull]': '' })).toHaveLength(0);
  });
});

describe('combining filters', () => {
  it('filter[field]=value means eq', async () => {
    expect(await companies({ 'filter[stage]': 'Series B' })).toEqual(['Delta Four']);
    expect(await companies({ 'filter[employees]': '250' })).toEqual(['Beta Two']);
  });

  it('several filters must all match, including the same one repeated', async () => {
    expect(await companies({ 'filter[stage][in]': 'Seed,Series A', 'filter[employees][gte]': '100' })).toEqual([
      'Beta Two',
    ]);
    const repeated = await api.list('/api/v1/companies?filter[employees][gte]=1&filter[employees][lt]=100&select=name');
    expect(repeated.body.data.map((r) => r.name)).toEqual(['Alpha One']);
    const twice = await api.list('/api/v1/companies?filter[employees][gt]=1&filter[employees][gt]=100&select=name');
    expect(twice.body.data.map((r) => r.name)).toEqual(['Beta Two']);
  });

  it('POST /query combines nested and/or groups with filters, select and sort', async () => {
    const answer = await api.query('/api/v1/companies', {
      count: 'exact',
      select: ['name'],
      sort: '-name',
      filter: { tags: { notNull: true } },
      where: {
        or: [
          { field: 'stage', op: 'eq', value: 'Seed' },
          {
            and: [
              { field: 'employees', op: 'gte', value: 100 },
              { field: 'hqCountryId', op: 'in', value: [country.FR, country.DE] },
            ],
          },
          {
            and: [
              { field: 'city', op: 'isNull' },
              { field: 'stage', op: 'eq', value: 'Series B' },
            ],
          },
        ],
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toEqual([
      { id: expect.any(Number), name: 'Beta Two' },
      { id: alpha.id, name: 'Alpha One' },
    ]);
    expect(answer.body.total).toBe(2);
  });

  it('POST /query refuses a where nested 1,000 deep or too wide with 400 naming the limit', async () => {
    let deep: unknown = { field: 'name', op: 'eq', value: 'x' };
    for (let i = 0; i < 1000; i++) deep = { and: [deep] };
    const tooDeep = await api.query('/api/v1/companies', { where: deep });
    expect(tooDeep.status).toBe(400);
    expect(errorOf(tooDeep).fields).toEqual({ where: `Groups nest at most ${MAX_FILTER_DEPTH} deep` });
    const condition = { field: 'name', op: 'eq', value: 'x' };
    const tooWide = await api.query('/api/v1/companies', {
      where: { or: Array.from({ length: 40 }, () => ({ and: [condition, condition] })) },
    });
    expect(tooWide.status).toBe(400);
    expect(errorOf(tooWide).fields?.where).toMatch(`At most ${MAX_CONDITIONS} conditions`);
    const tooMany = await api.query('/api/v1/companies', {
      where: { field: 'name', op: 'in', value: Array.from({ length: 1001 }, (_, i) => `n${i}`) },
    });
    expect(tooMany.status).toBe(400);
    expect(errorOf(tooMany).fields).toEqual({ 'where.name': 'Expected between 1 and 1000 values' });
  });

  it('POST /query: an empty or matches nothing, an empty and matches everything', async () => {
    const none = await api.query('/api/v1/companies', { where: { or: [] }, count: 'exact' });
    expect(none.body).toMatchObject({ data: [], total: 0, totalExact: true });
    const all = await api.query('/api/v1/companies', { where: { and: [] }, count: 'estimated' });
    expect(all.body).toMatchObject({ total: 4, totalExact: true });
    const empty = await api.query('/api/v1/companies', { count: 'estimated' });
    expect(empty.body).toMatchObject({ total: 4, totalExact: true });
  });
});

describe('scopes', () => {
  it('a scope is one condition of a get, whatever operators it holds', async () => {
    // A scope ending in `or` must not let a get by id answer another row.
    const scope = { where: sql`false or true` };
    const rows = await server.database.rows<{ row: string }>(getSql(companyDescription, alpha.id, { join: [] }, scope));
    expect(rows.map((r) => (JSON.parse(r.row) as Row).id)).toEqual([alpha.id]);
  });
});
