import { readFile } from 'node:fs/promises';
import { isWritable } from '@data-platform/shared/entities/entity';
import { createSchema } from '@data-platform/shared/entities/record-schema';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openDatabase } from '../db/client.ts';
import { seedDemoIfEmpty } from './demo.ts';
import { demoCounts, type EntityRows, generateDataset, QUARTERS, quarterEnds, type Row } from './generator.ts';
import { readReferenceData, seedDatabase } from './load.ts';
import type { ReferenceData } from './places.ts';

let database: Database;
let reference: ReferenceData;

beforeAll(async () => {
  // The migrated template the test run made once (see testing/global-setup.ts), when there is one.
  const template = inject('pgliteTemplate');
  database = await openDatabase({ loadDataDir: template ? new Blob([await readFile(template)]) : undefined });
  reference = await readReferenceData(database);
});
afterAll(async () => {
  await database?.close();
});

/** Every stream read in order, as the loader does. */
function materialize(streams: EntityRows[]): Record<string, Row[]> {
  return Object.fromEntries(streams.map((s) => [s.entity.name, [...s.rows()]]));
}

describe('the data generator', () => {
  it('gives the same rows for the same seed, and others for another seed', () => {
    const first = materialize(generateDataset(reference, demoCounts, 7));
    const again = materialize(generateDataset(reference, demoCounts, 7));
    const other = materialize(generateDataset(reference, demoCounts, 8));
    expect(again).toEqual(first);
    expect(other.companies).not.toEqual(first.companies);
    expect(first.companies).toHaveLength(demoCounts.companies);
    expect(new Set(first.fundPerformances?.map((p) => p.fundId)).size).toBe(demoCounts.funds);
    expect(first.fundCashFlows?.length).toBeGreaterThan(demoCounts.funds * QUARTERS);
  });

  it('gives the demo funds peers: several funds share a vintage and a strategy (their quartiles are ranked)', () => {
    const funds = materialize(generateDataset(reference, demoCounts)).funds ?? [];
    const cohorts = new Map<string, number>();
    for (const fund of funds) {
      const key = `${fund.vintageYear} ${fund.strategy}`;
      cohorts.set(key, (cohorts.get(key) ?? 0) + 1);
    }
    const ranked = [...cohorts.values()].filter((n) => n >= 2);
    expect(
      ranked.reduce((sum, n) => sum + n, 0),
      JSON.stringify([...cohorts]),
    ).toBeGreaterThanOrEqual(4);
  });

  it('makes rows that the API would accept', () => {
    for (const { entity, rows } of generateDataset(reference, demoCounts)) {
      const schema = createSchema(entity);
      const writable = Object.entries(entity.fields)
        .filter(([, f]) => isWritable(f))
        .map(([name]) => name);
      for (const row of rows()) {
        const body = Object.fromEntries(writable.filter((f) => row[f] !== undefined).map((f) => [f, row[f]]));
        const parsed = schema.safeParse(body);
        expect(parsed.error?.issues ?? [], `${entity.name} ${row.id}`).toEqual([]);
      }
    }
  });

  it('keeps related facts consistent', () => {
    const data = materialize(generateDataset(reference, demoCounts));
    const stateCountry = new Map(reference.states.map((s) => [s.id, s.countryId]));
    for (const row of [...(data.companies ?? []), ...(data.contacts ?? []), ...(data.firms ?? [])]) {
      if (row.hqStateId !== null) expect(stateCountry.get(row.hqStateId as number)).toBe(row.hqCountryId);
    }
    const emails = (data.contacts ?? []).map((c) => c.email);
    expect(new Set(emails).size).toBe(emails.length);
    for (const [name, pair] of [
      ['contactCompanies', ['contactId', 'companyId']],
      ['contactDeals', ['contactId', 'dealId']],
      ['dealInvestors', ['dealId', 'investorId']],
    ] as const) {
      const keys = (data[name] ?? []).map((l) => `${l[pair[0]]}:${l[pair[1]]}`);
      expect(new Set(keys).size, name).toBe(keys.length);
    }
    // Cumulative figures never go down from one quarter to the next.
    const byFund = new Map<unknown, Row[]>();
    for (const p of data.fundPerformances ?? []) byFund.set(p.fundId, [...(byFund.get(p.fundId) ?? []), p]);
    const flowsByFund = new Map<unknown, Row[]>();
    for (const f of data.fundCashFlows ?? []) flowsByFund.set(f.fundId, [...(flowsByFund.get(f.fundId) ?? []), f]);
    for (const [fund, quarters] of byFund) {
      // The last QUARTERS quarter ends, and every year end before them since the first call.
      const dates = quarters.map((q) => String(q.asOfDate));
      expect(dates.slice(-QUARTERS)).toEqual(quarterEnds);
      for (const date of dates.slice(0, -QUARTERS)) expect(date.endsWith('-12-31'), date).toBe(true);
      // A statement's paid-in and distributed are its fund's flows up to its date.
      const flows = flowsByFund.get(fund) ?? [];
      for (const q of quarters) {
        const upTo = flows.filter((f) => String(f.date) <= String(q.asOfDate));
        const sum = (types: string[]) =>
          upTo
            .filter((f) => types.includes(String(f.type)))
            .reduce((total, f) => total + (f.amount as { amount: number }).amount, 0);
        expect(q.paidIn).toBe(sum(['Capital call', 'Fee outside commitment']));
        expect(q.distributed).toBe(sum(['Distribution', 'Recallable distribution', 'In-kind distribution']));
      }
      for (let i = 1; i < quarters.length; i++) {
        const [before, after] = [quarters[i - 1] as Row, quarters[i] as Row];
        expect(String(after.asOfDate) > String(before.asOfDate)).toBe(true);
        expect(after.paidIn as number).toBeGreaterThanOrEqual(before.paidIn as number);
        expect(after.distributed as number).toBeGreaterThanOrEqual(before.distributed as number);
      }
    }
  });

  it('loads through COPY after the accounts already there, and new rows get the next ids', async () => {
    await database.rows(sql`insert into users (email, status) values ('admin@example.com', 'active')`);
    const timings = await seedDatabase(database, demoCounts, { bulk: true });
    expect(timings.find((t) => t.table === 'companies')?.rows).toBe(demoCounts.companies);
    const [counts] = await database.rows<{ companies: number; performances: number; orphans: number }>(sql`
      select (select count(*)::int from companies) as companies,
        (select count(*)::int from fund_performances) as performances,
        (select count(*)::int from companies c join states s on s.id = c.hq_state_id
          where s.country_id <> c.hq_country_id) as orphans`);
    const performances = timings.find((t) => t.table === 'fund_performances')?.rows;
    expect(performances).toBeGreaterThan(demoCounts.funds * QUARTERS);
    expect(counts).toEqual({ companies: demoCounts.companies, performances, orphans: 0 });
    const [created] = await database.rows<{ id: number }>(
      sql`insert into companies (name) values ('After the seed') returning id::int as id`,
    );
    expect(created?.id).toBe(demoCounts.companies + 1);
    // Dropped indexes and foreign keys are all back.
    const [{ indexes }] = (await database.rows<{ indexes: number }>(
      sql`select count(*)::int as indexes from pg_indexes where tablename = 'companies' and indexname = 'companies_name_trgm_idx'`,
    )) as [{ indexes: number }];
    expect(indexes).toBe(1);
    const [owners] = await database.rows<{ first: number; admin: number }>(sql`
      select min(u.id)::int as first, (select count(*)::int from companies where owner_id = 1) as admin
      from users u where u.email like '%@demo.example.com'`);
    expect(owners).toEqual({ first: 2, admin: 0 });
    expect(await seedDemoIfEmpty(database, { info: () => {} })).toBe(false);
  });

  it('round-trips awkward text, money, lists and nulls through COPY', async () => {
    const { copyCsv } = database;
    const { csvColumns, encodeCsv } = await import('./csv.ts');
    const { companies } = await import('@data-platform/shared/entities/companies');
    const columns = csvColumns(companies);
    const awkward = 'Comma, "quote", back\\slash\nnew line';
    await copyCsv(
      'companies',
      columns.map((c) => c.name),
      encodeCsv(columns, [
        {
          id: 9001,
          createdAt: '2025-01-01T00:00:00.000Z',
          updatedAt: '2025-01-01T00:00:00.000Z',
          version: 1,
          name: awkward,
          legalName: '',
          revenue: { amount: 12.5, currency: 'EUR' },
          tags: ['a,b', 'say "hi"', '\\.'],
        },
      ]),
    );
    const [row] = await database.rows(sql`
      select name, legal_name, revenue::float as revenue, revenue_currency, total_raised, tags
      from companies where id = 9001`);
    expect(row).toEqual({
      name: awkward,
      legal_name: '',
      revenue: 12.5,
      revenue_currency: 'EUR',
      total_raised: null,
      tags: ['a,b', 'say "hi"', '\\.'],
    });
  });
});
