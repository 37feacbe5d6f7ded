import type { AggregatesResponse, FieldTotals } from '@data-platform/shared/query/aggregates';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithPermissions, withToken } from '../testing/accounts.ts';
import { type ApiClient, adminClient, errorOf, type Factories, factories, type Row } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * `GET /{resource}/aggregates` over HTTP against a real database: the
 * server's totals of a filtered list equal what SQL computes over the same
 * rows, per currency for money, per option for a group-by, with custom
 * fields; and the list's rights apply.
 */

let server: TestServer;
let admin: ApiClient;
let make: Factories;
/** Keys (`cf<id>`) of the companies' custom fields used here. */
const custom = { score: '', budget: '', tier: '' };
const TIERS = ['Gold', 'Silver', 'Bronze'] as const;
const STAGES = ['Seed', 'Series A', 'Series B', null] as const;
const CURRENCIES = ['EUR', 'USD', 'GBP'] as const;
/** Rows made here are named `Agg <n>`; other rows of the table stay out of every filter. */
const ROWS = 36;

async function define(values: Record<string, unknown>): Promise<string> {
  const answer = await admin.post('/api/v1/custom-data', { entity: 'companies', ...values });
  if (answer.status !== 201) throw new Error(`Defining answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.key as string;
}

beforeAll(async () => {
  server = await startTestServer();
  admin = adminClient(server);
  make = factories(admin);
  custom.score = await define({ name: 'Score', type: 'decimal' });
  custom.budget = await define({ name: 'Budget', type: 'money' });
  custom.tier = await define({ name: 'Tier', type: 'select', options: [...TIERS] });
  for (let n = 0; n < ROWS; n++) {
    const currency = CURRENCIES[n % 3] as string;
    await make.company({
      name: `Agg ${String(n).padStart(3, '0')}`,
      stage: STAGES[n % 4],
      employees: n % 5 === 0 ? null : n * 7,
      // Tenths and hundredths that a float sum would not keep exact (0.1 + 0.2).
      revenue: n % 6 === 5 ? null : { amount: n / 10 + 0.2, currency },
      totalRaised: { amount: Number((1_000_000.01 * (n + 1)).toFixed(2)), currency: 'USD' },
      [custom.score]: n % 4 === 3 ? null : n / 100,
      [custom.budget]: n % 2 === 0 ? { amount: n + 0.1, currency: n % 4 === 0 ? 'EUR' : 'CHF' } : null,
      [custom.tier]: n % 7 === 6 ? null : TIERS[n % 3],
    });
  }
});

afterAll(async () => server?.close());

async function totals(resource: string, query: Record<string, string>, client = admin) {
  const answer = await client.get<AggregatesResponse>(`/api/v1/${resource}/aggregates`, query);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

interface SqlStats {
  key: string | null;
  count: string;
  sum: string | null;
  avg: string | null;
  min: string | null;
  max: string | null;
}

/** SQL's own count, sum, avg, min, max of `value` over the companies `where` keeps, per `key`. */
async function sqlStats(value: SQL, where: SQL, key: SQL = sql`null::text`): Promise<SqlStats[]> {
  return server.database.rows<SqlStats>(
    sql`select ${key} as key, count(${value})::text as count, sum(${value})::text as sum,
      trim_scale(avg(${value}))::text as avg, min(${value})::text as min, max(${value})::text as max
    from companies where ${where} group by 1 order by 1`,
  );
}

const asStats = ({ count, sum, avg, min, max }: SqlStats) => ({ count: Number(count), sum, avg, min, max });

/** The companies of `?filter[name][startsWith]=Agg&filter[stage][in]=Seed,Series A&filter[employees][gte]=20`. */
const FILTER = {
  'filter[name][startsWith]': 'Agg',
  'filter[stage][in]': 'Seed,Series A',
  'filter[employees][gte]': '20',
};
const FILTER_SQL = sql`name like 'Agg %' and stage in ('Seed', 'Series A') and employees >= 20`;
const number = (totalsOf: FieldTotals | undefined) => {
  if (totalsOf?.kind !== 'number') throw new Error(`Expected number totals, got ${JSON.stringify(totalsOf)}`);
  return totalsOf;
};
const money = (totalsOf: FieldTotals | undefined) => {
  if (totalsOf?.kind !== 'money') throw new Error(`Expected money totals, got ${JSON.stringify(totalsOf)}`);
  return totalsOf;
};

describe('totals of a filtered list', () => {
  it('count, sum, average, min and max equal SQL over the same rows', async () => {
    const body = await totals('companies', { ...FILTER, fields: 'employees' });
    const [expected] = await sqlStats(sql`employees`, FILTER_SQL);
    const [rows] = await server.database.rows<{ n: string }>(
      sql`select count(*)::text as n from companies where ${FILTER_SQL}`,
    );
    expect(body.count).toBe(Number(rows?.n));
    expect(body.count).toBeGreaterThan(5);
    expect(number(body.fields.employees)).toEqual({ kind: 'number', ...asStats(expected as SqlStats) });
    expect(body.groupBy).toBeNull();
    expect(body.groups).toBeNull();
  });

  it('totals money per currency, never across currencies, exactly (no float drift)', async () => {
    const body = await totals('companies', { 'filter[name][startsWith]': 'Agg', fields: 'revenue,totalRaised' });
    const where = sql`name like 'Agg %'`;
    const revenue = money(body.fields.revenue);
    const expected = await sqlStats(sql`revenue`, sql`${where} and revenue is not null`, sql`revenue_currency`);
    expect(revenue.currencies).toEqual(expected.map((row) => ({ currency: row.key, ...asStats(row) })));
    expect(revenue.currencies.map((c) => c.currency)).toEqual(['EUR', 'GBP', 'USD']);
    expect(revenue.count).toBe(ROWS - ROWS / 6);
    // The sum Postgres computes, digit for digit: what adding the amounts as floats would not give.
    const eur = Array.from({ length: ROWS }, (_, n) => n)
      .filter((n) => n % 3 === 0 && n % 6 !== 5)
      .map((n) => n / 10 + 0.2);
    const floatSum = eur.reduce((a, b) => a + b, 0);
    const eurSum = revenue.currencies.find((c) => c.currency === 'EUR')?.sum;
    expect(eurSum).toBe(expected.find((row) => row.key === 'EUR')?.sum);
    expect(Number(eurSum)).toBeCloseTo(floatSum, 9);
    const raised = money(body.fields.totalRaised);
    const [usd] = await sqlStats(sql`total_raised`, where, sql`total_raised_currency`);
    expect(raised.currencies).toEqual([{ currency: 'USD', ...asStats(usd as SqlStats) }]);
    expect(raised.currencies[0]?.sum).toBe((1_000_000.01 * ((ROWS * (ROWS + 1)) / 2)).toFixed(2));
  });

  it('totals custom number and money fields from their JSON', async () => {
    const body = await totals('companies', {
      'filter[name][startsWith]': 'Agg',
      fields: `${custom.score},${custom.budget},employees`,
    });
    const where = sql`name like 'Agg %'`;
    const score = sql`(custom ->> ${custom.score})::numeric`;
    const [expectedScore] = await sqlStats(score, where);
    expect(number(body.fields[custom.score])).toEqual({ kind: 'number', ...asStats(expectedScore as SqlStats) });
    expect(number(body.fields[custom.score]).count).toBe(ROWS - ROWS / 4);
    const amount = sql`(custom -> ${custom.budget} ->> 'amount')::numeric`;
    const budget = await sqlStats(
      amount,
      sql`${where} and custom ? ${custom.budget}`,
      sql`custom -> ${custom.budget} ->> 'currency'`,
    );
    expect(money(body.fields[custom.budget]).currencies).toEqual(
      budget.map((row) => ({ currency: row.key, ...asStats(row) })),
    );
    expect(money(body.fields[custom.budget]).currencies.map((c) => c.currency)).toEqual(['CHF', 'EUR']);
  });

  it('takes every total the reader may read when no fields are named, custom ones included', async () => {
    const body = await totals('companies', { 'filter[name][startsWith]': 'Agg' });
    expect(Object.keys(body.fields)).toEqual(
      expect.arrayContaining(['employees', 'revenue', 'totalRaised', custom.score, custom.budget]),
    );
    // A year is a number that does not add up; system fields (version) are not totals.
    expect(Object.keys(body.fields)).not.toContain('foundedYear');
    expect(Object.keys(body.fields)).not.toContain('version');
  });

  it('follows the search and answers zeros and nulls for an empty list', async () => {
    const searched = await totals('companies', { q: 'Agg 01', fields: 'employees' });
    const [expected] = await sqlStats(sql`employees`, sql`name ilike '%Agg 01%'`);
    expect(searched.count).toBe(10);
    expect(number(searched.fields.employees)).toEqual({ kind: 'number', ...asStats(expected as SqlStats) });
    const none = await totals('companies', { 'filter[name][eq]': 'No such company', fields: 'employees,revenue' });
    expect(none).toEqual({
      count: 0,
      fields: {
        employees: { kind: 'number', count: 0, sum: null, avg: null, min: null, max: null },
        revenue: { kind: 'money', count: 0, currencies: [] },
      },
      groupBy: null,
      groups: null,
    });
  });
});

describe('group-by a picklist', () => {
  it('subtotals per stage, in the options order, the empty group last, each equal to SQL', async () => {
    const body = await totals('companies', {
      'filter[name][startsWith]': 'Agg',
      fields: 'employees,revenue',
      groupBy: 'stage',
    });
    expect(body.groupBy).toBe('stage');
    const groups = body.groups ?? [];
    // Seed before Series A before Series B (the options' order, here also the alphabet's), no stage last.
    expect(groups.map((g) => g.value)).toEqual(['Seed', 'Series A', 'Series B', null]);
    expect(groups.reduce((sum, g) => sum + g.count, 0)).toBe(body.count);
    const employees = await sqlStats(sql`employees`, sql`name like 'Agg %'`, sql`stage`);
    for (const group of groups) {
      const expected = employees.find((row) => row.key === group.value) as SqlStats;
      expect(number(group.fields.employees)).toEqual({ kind: 'number', ...asStats(expected) });
      const revenue = await sqlStats(
        sql`revenue`,
        sql`name like 'Agg %' and stage is not distinct from ${group.value} and revenue is not null`,
        sql`revenue_currency`,
      );
      expect(money(group.fields.revenue).currencies).toEqual(
        revenue.map((row) => ({ currency: row.key, ...asStats(row) })),
      );
    }
  });

  it('groups by a custom picklist in its defined order, not the alphabet', async () => {
    const body = await totals('companies', {
      'filter[name][startsWith]': 'Agg',
      fields: `employees,${custom.budget}`,
      groupBy: custom.tier,
    });
    const groups = body.groups ?? [];
    expect(groups.map((g) => g.value)).toEqual(['Gold', 'Silver', 'Bronze', null]);
    const expected = await sqlStats(sql`employees`, sql`name like 'Agg %'`, sql`custom ->> ${custom.tier}`);
    for (const group of groups) {
      const row = expected.find((e) => e.key === group.value) as SqlStats;
      expect(group.count).toBeGreaterThan(0);
      expect(number(group.fields.employees)).toEqual({ kind: 'number', ...asStats(row) });
    }
  });

  it('groups an amount per the currency of its sibling field', async () => {
    const fund = async (currency: string, targetSize: number, strategy: string) =>
      make.fund({ name: `Agg fund ${currency} ${targetSize}`, currency, targetSize, strategy });
    await fund('EUR', 100.5, 'Growth');
    await fund('EUR', 200.25, 'Growth');
    await fund('USD', 300, 'Buyout');
    const body = await totals('funds', {
      'filter[name][startsWith]': 'Agg fund',
      fields: 'targetSize',
      groupBy: 'strategy',
    });
    expect(money(body.fields.targetSize).currencies).toEqual([
      { currency: 'EUR', count: 2, sum: '300.75', avg: '150.375', min: '100.5', max: '200.25' },
      { currency: 'USD', count: 1, sum: '300', avg: '300', min: '300', max: '300' },
    ]);
    // Growth is before Buyout among the strategies (not in the alphabet).
    expect(body.groups?.map((g) => [g.value, g.count])).toEqual([
      ['Growth', 2],
      ['Buyout', 1],
    ]);
  });
});

describe('what the request may ask', () => {
  it('answers 400 naming the parameter for an unknown field, a field without totals, or a group-by that is no picklist', async () => {
    const ask = async (query: Record<string, string>) => {
      const answer = await admin.get('/api/v1/companies/aggregates', query);
      expect(answer.status).toBe(400);
      return errorOf(answer).fields;
    };
    expect(await ask({ fields: 'employees,nope' })).toEqual({ fields: 'Unknown field nope' });
    expect(await ask({ fields: 'name' })).toMatchObject({ fields: expect.stringMatching(/^name cannot be totalled/) });
    expect(await ask({ groupBy: 'employees' })).toMatchObject({
      groupBy: expect.stringMatching(/^employees is not a picklist/),
    });
    expect(await ask({ groupBy: 'tags' })).toMatchObject({ groupBy: expect.stringMatching(/^tags is not a picklist/) });
    expect(await ask({ groupBy: 'nope' })).toEqual({ groupBy: 'Unknown field nope' });
    expect(await ask({ 'filter[nope][eq]': '1' })).toEqual({ 'filter[nope][eq]': 'Unknown field nope' });
    expect(await ask({ 'filter[employees][gte]': 'many' })).toMatchObject({
      'filter[employees][gte]': expect.any(String),
    });
    expect(await ask({ sort: 'name' })).toEqual({ sort: 'Unknown parameter sort' });
  });

  it('is refused (403) to a role that may not read the resource', async () => {
    const reader = await signInWithPermissions(server, ['deals:read']);
    const answer = await withToken(server.url, reader.token).get('/api/v1/companies/aggregates');
    expect(answer.status).toBe(403);
    const deals = await withToken(server.url, reader.token).get('/api/v1/deals/aggregates', { fields: 'amount' });
    expect(deals.status).toBe(200);
  });

  it("keeps to the reader's rows and fields: a limited reader of users counts only those they may see", async () => {
    const invited = await admin.post<Row>('/api/v1/users/invitations', {
      email: `agg-invited-${Date.now()}@test.example`,
      roleId: (await admin.get<{ data: { id: number }[] }>('/api/v1/roles', { select: 'id' })).body.data[0]?.id,
    });
    expect(invited.status).toBe(201);
    const reader = withToken(server.url, (await signInWithPermissions(server, ['companies:read'])).token);
    const all = await totals('users', {});
    const limited = await totals('users', {}, reader);
    const [seen] = await server.database.rows<{ n: string }>(
      sql`select count(*)::text as n from users where status in ('active', 'disabled', 'deleted')`,
    );
    expect(limited.count).toBe(Number(seen?.n));
    expect(all.count).toBeGreaterThan(limited.count);
    // The status field is not theirs to read: not theirs to group by either.
    const grouped = await reader.get('/api/v1/users/aggregates', { groupBy: 'status' });
    expect(grouped.status).toBe(400);
    expect(errorOf(grouped).fields).toEqual({ groupBy: 'Unknown field status' });
    expect((await totals('users', { groupBy: 'status' })).groups?.map((g) => g.value)).toContain('invited');
  });
});

describe('OpenAPI', () => {
  it('documents the totals of every list: parameters, the answer per kind, and the errors', async () => {
    const document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters?: { name: string }[]; responses: Record<string, unknown> }>>;
    };
    const operation = document.paths['/api/v1/companies/aggregates']?.get;
    expect(operation?.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['fields', 'groupBy', 'q']));
    expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '403']));
    expect(JSON.stringify(operation?.responses['200'])).toContain('currencies');
    expect(document.paths['/api/v1/deals/aggregates']?.get).toBeDefined();
  });
});
