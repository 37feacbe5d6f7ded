import type {
  FundComparisonAnswer,
  FundMetricsAnswer,
  PortfolioAnswer,
} from '@data-platform/shared/analytics/fund-metrics-api';
import type { Permission } from '@data-platform/shared/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithPermissions } from '../testing/accounts.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * Microsoft's XIRR example as a fund: a capital call of 10,000, three
 * distributions and the NAV of 2,750 stated by hand at 2009-04-01. Its net
 * IRR is the published XIRR of the example; the multiples and the KS-PME are
 * computed here by hand.
 */
const knownFlows = [
  { date: '2008-01-01', type: 'Capital call', amount: 10_000 },
  { date: '2008-03-01', type: 'Distribution', amount: 2750 },
  { date: '2008-10-30', type: 'Recallable distribution', amount: 4250 },
  { date: '2009-02-15', type: 'In-kind distribution', amount: 3250 },
];
// LibreOffice Calc's answer (the exact root is 0.37336253351883151…); Excel prints 0.373362535, 1.48e-9 off,
// as its XIRR stops iterating early (see packages/shared/src/analytics/rate.test.ts).
const PUBLISHED_XIRR = 0.373362533518832;
const levels = [
  { date: '2007-12-31', level: 1468.36 },
  { date: '2008-03-03', level: 1331.34 },
  { date: '2008-10-30', level: 954.09 },
  { date: '2009-02-13', level: 826.84 },
  { date: '2009-04-01', level: 811.08 },
];

interface ErrorAnswer {
  error: { code: string; fields?: Record<string, string> };
}

describe('fund analytics over stored flows', () => {
  let server: TestServer;
  let known: number;
  let peer: number;
  let empty: number;
  let indexId: number;
  const readAll: Permission[] = ['funds:read', 'fundCashFlows:read', 'fundPerformances:read'];

  const create = async (resource: string, body: Record<string, unknown>) => {
    const response = await server.fetch(`/api/v1/${resource}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { id: number };
    if (response.status !== 201) throw new Error(`${resource}: ${response.status} ${JSON.stringify(json)}`);
    return json.id;
  };
  const get = async <T>(path: string, token?: string) => {
    const response = await server.fetch(path, token ? { headers: { authorization: `Bearer ${token}` } } : undefined);
    return { status: response.status, body: (await response.json()) as T };
  };
  const post = async <T>(path: string, body: unknown, token?: string) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await server.fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as T };
  };

  beforeAll(async () => {
    server = await startTestServer();
    const fund = { vintageYear: 2008, strategy: 'Buyout', currency: 'CHF' };
    known = await create('funds', { ...fund, name: 'Known Fund I', finalSize: 20_000 });
    for (const flow of knownFlows) {
      await create('fundCashFlows', {
        fundId: known,
        date: flow.date,
        type: flow.type,
        amount: { amount: flow.amount, currency: 'CHF' },
      });
    }
    // A flow in another currency is not counted, only reported.
    await create('fundCashFlows', {
      fundId: known,
      date: '2008-06-01',
      type: 'Capital call',
      amount: { amount: 999, currency: 'USD' },
    });
    await create('fundPerformances', { fundId: known, asOfDate: '2009-04-01', currency: 'CHF', nav: 2750 });

    // A peer of the same vintage and strategy: called 1,000, NAV 900 by hand, TVPI 0.9.
    peer = await create('funds', { ...fund, name: 'Peer Fund I', targetSize: 5000 });
    await create('fundCashFlows', {
      fundId: peer,
      date: '2008-02-01',
      type: 'Capital call',
      amount: { amount: 1000, currency: 'CHF' },
    });
    await create('fundPerformances', { fundId: peer, asOfDate: '2009-04-01', currency: 'CHF', nav: 900 });

    empty = await create('funds', { name: 'Empty Fund', currency: 'CHF' });
    indexId = await create('benchmarkIndexes', { name: 'Test index', currency: 'USD', source: 'Hand-typed' });
    for (const level of levels) await create('indexLevels', { indexId, ...level });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('computes a known fund’s metrics as published and by hand, to 1e-9', async () => {
    const { status, body } = await get<FundMetricsAnswer>(`/api/v1/funds/${known}/metrics?index=${indexId}`);
    expect(status).toBe(200);
    expect(body.asOf).toBe('2009-04-01');
    expect(body.currency).toBe('CHF');
    expect(body.committed).toBe(20_000);
    expect(body.flowCount).toBe(4);
    expect(body.otherCurrencyFlows).toBe(1);
    expect(body.index).toEqual({ id: indexId, name: 'Test index', currency: 'USD' });
    const m = body.metrics;
    expect(Math.abs((m.irr.value as number) - PUBLISHED_XIRR)).toBeLessThan(1e-9);
    expect(m.irr.annualised).toBe(true);
    expect(m.paidIn.value).toBe(10_000);
    expect(m.distributed.value).toBe(10_250);
    expect(m.nav.value).toBe(2750);
    expect(Math.abs((m.dpi.value as number) - 1.025)).toBeLessThan(1e-12);
    expect(Math.abs((m.rvpi.value as number) - 0.275)).toBeLessThan(1e-12);
    expect(Math.abs((m.tvpi.value as number) - 1.3)).toBeLessThan(1e-12);
    expect(m.pic.value).toBe(0.5);
    // KS-PME by hand: each flow grown by the index from the last level on or before its date to the as-of date.
    const end = 811.08;
    const grown = 2750 * (end / 1468.36) + 4250 * (end / 954.09) + 3250 * (end / 826.84);
    const ksPme = (grown + 2750) / (10_000 * (end / 1468.36));
    expect(Math.abs((m.ksPme.value as number) - ksPme)).toBeLessThan(1e-9);
    expect(body.navSource).toMatchObject({ kind: 'record', date: '2009-04-01', nav: 2750, rolledForward: 0 });
  });

  it('gives a quarterly series from the first flow to the as-of date, at cost before the first NAV statement', async () => {
    const { body } = await get<FundMetricsAnswer>(`/api/v1/funds/${known}/metrics?index=${indexId}`);
    expect(body.series.map((p) => p.date)).toEqual([
      '2008-03-31',
      '2008-06-30',
      '2008-09-30',
      '2008-12-31',
      '2009-03-31',
      '2009-04-01',
    ]);
    const [first, , , , , last] = body.series;
    // 2008-03-31: 10,000 called, 2,750 back, no statement yet: NAV at cost 7,250.
    expect(first).toMatchObject({ paidIn: 10_000, distributed: 2750, nav: 7250, navKind: 'cost', netCashFlow: -7250 });
    expect(first?.irr).toMatchObject({ annualised: false, days: 90 });
    expect(first?.ksPme?.value).toEqual(expect.any(Number));
    expect(last?.nav).toBe(2750);
    expect(last?.navKind).toBe('record');
    expect(Math.abs((last?.irr.value as number) - PUBLISHED_XIRR)).toBeLessThan(1e-9);
  });

  it('rolls the stated NAV forward by the flows after it', async () => {
    // A later as-of date: no flow since 2009-04-01, so the NAV stays; after the known fund's peer call, it grows.
    const { body } = await get<FundMetricsAnswer>(`/api/v1/funds/${peer}/metrics?asOf=2008-06-30`);
    expect(body.navSource).toMatchObject({ kind: 'cost', rolledForward: 1000 });
    expect(body.metrics.nav.value).toBe(1000);
    const later = await get<FundMetricsAnswer>(`/api/v1/funds/${known}/metrics?asOf=2010-01-01`);
    expect(later.body.navSource).toMatchObject({ kind: 'record', date: '2009-04-01', rolledForward: 0 });
    expect(later.body.series.at(-1)?.date).toBe('2010-01-01');
  });

  it('answers null with a reason where a metric is not defined', async () => {
    const none = await get<FundMetricsAnswer>(`/api/v1/funds/${empty}/metrics?asOf=2020-01-01`);
    expect(none.status).toBe(200);
    expect(none.body.series).toEqual([]);
    expect(none.body.metrics.tvpi).toMatchObject({ value: null, reason: 'nothing_paid_in' });
    expect(none.body.metrics.pic).toMatchObject({ value: null, reason: 'no_commitment' });
    expect(none.body.metrics.irr).toMatchObject({ value: null, reason: 'no_flows' });
    const noIndex = await get<FundMetricsAnswer>(`/api/v1/funds/${known}/metrics`);
    expect(noIndex.body.metrics.ksPme).toMatchObject({ value: null, reason: 'no_index' });
    expect(noIndex.body.series[0]?.ksPme).toBeUndefined();
    // The index starts after 2007-12-31: a fund as of before it is not covered.
    const early = await get<FundMetricsAnswer>(`/api/v1/funds/${known}/metrics?asOf=2007-06-30&index=${indexId}`);
    expect(early.body.metrics.paidIn.value).toBe(0);
    expect(early.body.metrics.ksPme).toMatchObject({ value: null, reason: 'index_not_covering' });
  });

  it('refuses bad parameters per field, unknown funds with 404', async () => {
    const bad = await get<ErrorAnswer>(`/api/v1/funds/${known}/metrics?asOf=2009-02-30`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields?.asOf).toBeDefined();
    const noSuchIndex = await get<ErrorAnswer>(`/api/v1/funds/${known}/metrics?index=999999`);
    expect(noSuchIndex.status).toBe(400);
    expect(noSuchIndex.body.error.fields?.index).toBeDefined();
    expect((await get(`/api/v1/funds/999999/metrics`)).status).toBe(404);
  });

  it('needs the read rights of funds, their flows and performance, and of the index when one is asked', async () => {
    const fundsOnly = await signInWithPermissions(server, ['funds:read', 'fundPerformances:read']);
    expect((await get(`/api/v1/funds/${known}/metrics`, fundsOnly.token)).status).toBe(403);
    expect((await get('/api/v1/funds/comparison', fundsOnly.token)).status).toBe(403);
    expect((await get('/api/v1/analytics/portfolio', fundsOnly.token)).status).toBe(403);
    const reader = await signInWithPermissions(server, readAll);
    expect((await get(`/api/v1/funds/${known}/metrics`, reader.token)).status).toBe(200);
    expect((await get(`/api/v1/funds/${known}/metrics?index=${indexId}`, reader.token)).status).toBe(403);
    const indexReader = await signInWithPermissions(server, [...readAll, 'benchmarkIndexes:read', 'indexLevels:read']);
    expect((await get(`/api/v1/funds/${known}/metrics?index=${indexId}`, indexReader.token)).status).toBe(200);
  });

  it('compares funds with their quartile among peers of the same vintage year and strategy', async () => {
    const { status, body } = await get<FundComparisonAnswer>('/api/v1/funds/comparison');
    expect(status).toBe(200);
    const row = (id: number) => body.funds.find((f) => f.id === id);
    expect(row(known)).toMatchObject({ vintageYear: 2008, strategy: 'Buyout', size: 20_000, asOf: '2009-04-01' });
    expect(Math.abs((row(known)?.tvpi.value as number) - 1.3)).toBeLessThan(1e-12);
    expect(Math.abs((row(known)?.irr.value as number) - PUBLISHED_XIRR)).toBeLessThan(1e-9);
    expect(row(known)?.quartile).toEqual({ value: 1, peers: 2 });
    expect(row(peer)?.quartile).toEqual({ value: 3, peers: 2 });
    expect(row(empty)?.quartile).toMatchObject({ value: null, reason: 'no_vintage' });
    expect(row(empty)?.tvpi).toMatchObject({ value: null, reason: 'no_flows' });
  });

  it('sums the portfolio per currency with its quarterly series', async () => {
    const { status, body } = await get<PortfolioAnswer>('/api/v1/analytics/portfolio?asOf=2009-04-01');
    expect(status).toBe(200);
    const chf = body.currencies.find((c) => c.currency === 'CHF');
    // Known (committed 20,000) and peer (target 5,000); the empty fund has no flow.
    expect(chf).toMatchObject({ funds: 2, committed: 25_000, paidIn: 11_000, distributed: 10_250, nav: 3650 });
    expect(chf?.series[0]).toEqual({
      date: '2008-03-31',
      committed: 25_000,
      paidIn: 11_000,
      distributed: 2750,
      nav: 8250,
    });
    expect(chf?.series.at(-1)?.date).toBe('2009-04-01');
  });

  it('computes quarter-end performance records from the flows, refreshes them, and leaves hand-entered ones', async () => {
    const hand = await create('fundPerformances', {
      fundId: known,
      asOfDate: '2008-12-31',
      currency: 'CHF',
      nav: 5000,
    });
    const first = await post<{
      created: number;
      updated: number;
      keptManual: number;
      records: { id: number; asOfDate: string }[];
    }>(`/api/v1/funds/${known}/performances/compute`, { through: '2009-06-30' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ created: 5, updated: 0, keptManual: 1, removed: 0 });
    const last = first.body.records.at(-1) as { id: number; asOfDate: string };
    expect(last.asOfDate).toBe('2009-06-30');
    const record = await get<Record<string, unknown>>(`/api/v1/fundPerformances/${last.id}`);
    expect(record.body).toMatchObject({
      source: 'computed',
      paidIn: 10_000,
      distributed: 10_250,
      nav: 2750,
      committed: 20_000,
      currency: 'CHF',
    });
    expect(record.body.computedAt).toEqual(expect.any(String));
    expect(Math.abs((record.body.netIrr as number) / 100 - 0.3)).toBeLessThan(0.1);
    // 2008-12-31 stays as entered, and now gives the NAV of 2009-03-31 (rolled forward by the 2009-02-15 distribution).
    expect((await get<Record<string, unknown>>(`/api/v1/fundPerformances/${hand}`)).body).toMatchObject({
      source: 'manual',
      nav: 5000,
    });
    const march = first.body.records.find((r) => r.asOfDate === '2009-03-31') as { id: number };
    expect((await get<Record<string, unknown>>(`/api/v1/fundPerformances/${march.id}`)).body.nav).toBe(1750);
    const again = await post<{ created: number; updated: number }>(`/api/v1/funds/${known}/performances/compute`, {
      through: '2009-06-30',
    });
    // The same flows give the same figures: nothing is written again.
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 5 });
    // Narrower: the computed records after the new end are removed.
    const narrower = await post<{ removed: number }>(`/api/v1/funds/${known}/performances/compute`, {
      through: '2008-09-30',
    });
    expect(narrower.body).toMatchObject({ removed: 2 });
  });

  it('lets only those who may write performance records compute them', async () => {
    const reader = await signInWithPermissions(server, readAll);
    expect((await post(`/api/v1/funds/${known}/performances/compute`, {}, reader.token)).status).toBe(403);
    const writer = await signInWithPermissions(server, [
      ...readAll,
      'fundPerformances:create',
      'fundPerformances:update',
      'fundPerformances:delete',
    ]);
    expect((await post(`/api/v1/funds/${peer}/performances/compute`, {}, writer.token)).status).toBe(200);
    expect((await post('/api/v1/funds/999999/performances/compute', {}, writer.token)).status).toBe(404);
  });

  it('documents the routes in the OpenAPI document', async () => {
    const document = (await (await server.fetch('/api/openapi.json')).json()) as { paths: Record<string, unknown> };
    for (const path of [
      '/api/v1/funds/{id}/metrics',
      '/api/v1/funds/comparison',
      '/api/v1/analytics/portfolio',
      '/api/v1/funds/{id}/performances/compute',
    ]) {
      expect(Object.keys(document.paths), path).toContain(path);
    }
  });
});
