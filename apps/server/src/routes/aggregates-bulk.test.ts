import type { AggregatesResponse } from '@data-platform/shared/query/aggregates';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ApiClient, adminClient } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * Issue 13's test: totals of a filtered list of 100,000 rows. The server's
 * sums (and the rest) equal SQL's over the same rows, per currency and per
 * group, to the last digit.
 */

const ROWS = 100_000;
let server: TestServer;
let api: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  // One statement rather than 100,000 requests: this test is about totalling, not creating.
  // Amounts with cents, spread by a multiplicative hash; every sixth revenue empty.
  await server.database.rows(
    sql`insert into companies (name, stage, employees, revenue, revenue_currency)
      select 'Bulk ' || lpad(g::text, 6, '0'),
        (array['Pre-seed', 'Seed', 'Series A', 'Series B', null])[1 + g % 5],
        case when g % 11 = 0 then null else (g * 7919) % 5000 end,
        case when g % 6 = 5 then null else ((g::bigint * 104729) % 100000000) / 100.0 end,
        case when g % 6 = 5 then null else (array['EUR', 'USD', 'GBP'])[1 + g % 3] end
      from generate_series(1, ${ROWS}) g`,
  );
}, 120_000);

afterAll(async () => server?.close());

it('totals a filtered list of 100,000 rows: the server sum equals SQL sum, per currency and per stage', async () => {
  const started = performance.now();
  const answer = await api.get<AggregatesResponse>('/api/v1/companies/aggregates', {
    'filter[name][startsWith]': 'Bulk',
    'filter[employees][gte]': '1000',
    fields: 'employees,revenue',
    groupBy: 'stage',
  });
  const elapsed = performance.now() - started;
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const body = answer.body;
  const where = sql`name like 'Bulk %' and employees >= 1000`;
  const [whole] = await server.database.rows<{ n: string; employees: string }>(
    sql`select count(*)::text as n, sum(employees)::text as employees from companies where ${where}`,
  );
  expect(body.count).toBe(Number(whole?.n));
  expect(body.count).toBeGreaterThan(60_000);
  expect(body.fields.employees).toMatchObject({ kind: 'number', sum: whole?.employees });

  const perCurrency = await server.database.rows<{ currency: string; n: string; total: string }>(
    sql`select revenue_currency as currency, count(revenue)::text as n, sum(revenue)::text as total
      from companies where ${where} and revenue is not null group by 1 order by 1`,
  );
  const revenue = body.fields.revenue;
  if (revenue?.kind !== 'money') throw new Error(`Expected money totals, got ${JSON.stringify(revenue)}`);
  expect(revenue.currencies.map((c) => [c.currency, c.count, c.sum])).toEqual(
    perCurrency.map((row) => [row.currency, Number(row.n), row.total]),
  );

  const perStage = await server.database.rows<{ stage: string | null; n: string; total: string }>(
    sql`select stage, count(*)::text as n, sum(revenue)::text as total from companies where ${where}
      group by 1 order by array_position(array['Pre-seed', 'Seed', 'Series A', 'Series B'], stage) nulls last`,
  );
  expect(body.groups?.map((g) => [g.value, g.count])).toEqual(perStage.map((row) => [row.stage, Number(row.n)]));
  for (const group of body.groups ?? []) {
    const subtotal = group.fields.revenue;
    if (subtotal?.kind !== 'money') throw new Error('Expected money subtotals');
    const currencies = await server.database.rows<{ currency: string; total: string }>(
      sql`select revenue_currency as currency, sum(revenue)::text as total from companies
        where ${where} and stage is not distinct from ${group.value} and revenue is not null group by 1 order by 1`,
    );
    expect(subtotal.currencies.map((c) => [c.currency, c.sum])).toEqual(currencies.map((c) => [c.currency, c.total]));
  }
  console.info(`aggregates of ${body.count} of ${ROWS} rows, 5 groups, 3 currencies: ${elapsed.toFixed(0)} ms`);
}, 60_000);
