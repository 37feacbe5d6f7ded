import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiClient, adminClient, factories } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * Statements a fund's analytics send (issue 12: one request, one statement
 * where it can be): its metrics read the fund with its flows and NAV
 * statements in one, the index with its levels in one more; the compute
 * writes every quarter end, its history and its audit events in one. Besides
 * them, the throttle counts the computation (one statement). None grows with
 * the flows or the records.
 */

let server: TestServer;
let api: ApiClient;
let fundId: number;
let indexId: number;

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  const make = factories(api);
  fundId = (await make.fund({ currency: 'EUR', finalSize: 1000 })).id;
  for (const [date, type, amount] of [
    ['2020-01-15', 'Capital call', 500],
    ['2021-06-30', 'Distribution', 200],
    ['2022-03-01', 'Capital call', 300],
  ] as const) {
    await make.create('fundCashFlows', { fundId, date, type, amount: { amount, currency: 'EUR' } });
  }
  await make.fundPerformance(fundId, { asOfDate: '2021-12-31', currency: 'EUR', nav: 450 });
  indexId = (await make.create('benchmarkIndexes', { name: 'Statements index', currency: 'EUR', source: 'Test' })).id;
  for (const [date, level] of [
    ['2020-01-01', 100],
    ['2021-01-01', 110],
    ['2022-01-01', 121],
    ['2023-01-01', 125],
  ] as const) {
    await make.create('indexLevels', { indexId, date, level });
  }
});

afterAll(async () => server?.close());

/** The statements `request` sends through the server's database (each `rows` call is one). */
async function statementsOf(request: () => Promise<{ status: number }>): Promise<number> {
  const rows = vi.spyOn(server.database, 'rows');
  try {
    const answer = await request();
    expect(answer.status).toBe(200);
    return rows.mock.calls.length;
  } finally {
    rows.mockRestore();
  }
}

describe('fund analytics statements', () => {
  it('reads a fund’s metrics in one statement, its index in one more', async () => {
    const metrics = () => api.get(`/api/v1/funds/${fundId}/metrics`);
    await metrics();
    expect(await statementsOf(metrics)).toBe(2);
    expect(await statementsOf(() => api.get(`/api/v1/funds/${fundId}/metrics`, { index: indexId }))).toBe(3);
  });

  it('computes every quarter end in one write statement, however many there are', async () => {
    const compute = (through: string) => () => api.post(`/api/v1/funds/${fundId}/performances/compute`, { through });
    // The throttle, the fund with its flows and statements, the lock on its records, the write.
    expect(await statementsOf(compute('2020-06-30'))).toBe(4);
    expect(await statementsOf(compute('2023-06-30'))).toBe(4);
  });
});
