import { fundMetrics } from '@data-platform/shared/analytics/fund-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithPermissions } from '../testing/accounts.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { MAX_FLOWS } from './analytics.ts';
import { analyticsLimiter } from './fund-analytics.ts';

const PATH = '/api/v1/analytics/fund-metrics';

interface ErrorAnswer {
  error: { code: string; message: string; fields?: Record<string, string>; issues?: Record<string, { code: string }> };
}

const flows = [
  { date: '2008-01-01', amount: -10000 },
  { date: '2008-03-01', amount: 2750 },
  { date: '2008-10-30', amount: 4250 },
  { date: '2009-02-15', amount: 3250 },
];
const nav = { date: '2009-04-01', amount: 2750 };
const index = [
  { date: '2007-12-31', level: 1468.36 },
  { date: '2008-03-03', level: 1331.34 },
  { date: '2008-10-30', level: 954.09 },
  { date: '2009-02-13', level: 826.84 },
  { date: '2009-04-01', level: 811.08 },
];

describe('POST /api/v1/analytics/fund-metrics', () => {
  let server: TestServer;
  const calculate = async (body: unknown, token?: string) => {
    const response = await fetch(`${server.url}${PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token ?? server.token}` },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it("answers the engine's metrics: Microsoft's XIRR example with its last flow as the NAV, against an index", async () => {
    const answer = await calculate({ flows, nav, index, committed: 12500 });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(JSON.parse(JSON.stringify(fundMetrics({ flows, nav, index, committed: 12500 }))));
    const body = answer.body as unknown as ReturnType<typeof fundMetrics>;
    expect(Math.abs((body.irr.value as number) - 0.3733625335188315)).toBeLessThan(1e-15);
    expect(body.irr).toMatchObject({ annualised: true, days: 456 });
    expect(body.paidIn.value).toBe(10000);
    expect(body.distributed.value).toBe(10250);
    expect(body.tvpi.value).toBeCloseTo(1.3, 15);
    expect(body.pic.value).toBeCloseTo(0.8, 15);
    // 2008–2009: the index fell by almost half, so every PME says the fund beat it.
    expect(body.ksPme.value as number).toBeGreaterThan(1.5);
    expect(body.lnPme.spread.value as number).toBeGreaterThan(0.5);
    expect(body.pmePlus.lambda.value as number).toBeGreaterThan(0);
    expect(body.directAlpha.value as number).toBeGreaterThan(0.5);
  });

  it('answers null with a reason for what is not defined, with a 200', async () => {
    const answer = await calculate({
      flows: [{ date: '2020-01-01', amount: -100 }],
      nav: { date: '2020-06-30', amount: 0 },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.irr).toMatchObject({ value: null, reason: 'no_sign_change', annualised: false, days: 181 });
    expect(answer.body.ksPme).toMatchObject({ value: null, reason: 'no_index' });
    expect(answer.body.pic).toMatchObject({ value: null, reason: 'no_commitment' });
    const late = await calculate({ flows, nav, index: index.slice(1) });
    expect(late.body.directAlpha).toMatchObject({ value: null, reason: 'index_not_covering' });
  });

  it('refuses a caller without a token with 401, and answers one with no permission at all', async () => {
    const anonymous = await fetch(`${server.url}${PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ flows, nav }),
    });
    expect(anonymous.status).toBe(401);
    const { token } = await signInWithPermissions(server, []);
    expect((await calculate({ flows, nav }, token)).status).toBe(200);
  });

  it.each([
    ['a date that is not YYYY-MM-DD', { flows: [{ date: '01/02/2020', amount: -1 }], nav }, 'flows.0.date'],
    ['a date not in the calendar', { flows: [{ date: '2021-02-29', amount: -1 }], nav }, 'flows.0.date'],
    ['an amount that is not a number', { flows: [{ date: '2008-01-01', amount: '-1' }], nav }, 'flows.0.amount'],
    ['an amount too large', { flows: [{ date: '2008-01-01', amount: 1e300 }], nav }, 'flows.0.amount'],
    ['a flow after the NAV date', { flows: [...flows, { date: '2009-04-02', amount: 5 }], nav }, 'flows.4.date'],
    ['no flows', { flows: [], nav }, 'flows'],
    ['a negative NAV', { flows, nav: { ...nav, amount: -1 } }, 'nav.amount'],
    ['no NAV', { flows }, 'nav'],
    ['an index level of zero', { flows, nav, index: [{ date: '2008-01-01', level: 0 }] }, 'index.0.level'],
    ['two levels on one date', { flows, nav, index: [index[0], index[1], index[1]] }, 'index.2.date'],
    ['a commitment of zero', { flows, nav, committed: 0 }, 'committed'],
    ['a field the calculator does not know', { flows, nav, asOf: '2009-04-01' }, 'asOf'],
    ['a flow with another field', { flows: [{ ...flows[0], currency: 'USD' }], nav }, 'flows.0.currency'],
  ])('answers 400 naming the field for %s', async (_name, body, field) => {
    const answer = await calculate(body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    const { error } = answer.body as unknown as ErrorAnswer;
    expect(error.code).toBe('validation_failed');
    expect(Object.keys(error.fields ?? {})).toContain(field);
  });

  it(`answers 400 naming flows beyond ${MAX_FLOWS} flows, and 413 for a body over 1 MiB`, async () => {
    const many = Array.from({ length: MAX_FLOWS + 1 }, (_, i) => ({
      date: `20${String(10 + (i % 10)).padStart(2, '0')}-01-01`,
      amount: -1,
    }));
    const tooMany = await calculate({ flows: many, nav: { date: '2020-01-01', amount: 1 } });
    expect(tooMany.status).toBe(400);
    const { error } = tooMany.body as unknown as ErrorAnswer;
    expect(error.fields?.flows).toBeDefined();
    expect(error.issues?.flows).toMatchObject({ code: 'too_big', params: { maximum: MAX_FLOWS } });

    const huge = JSON.stringify({
      flows: Array.from({ length: MAX_FLOWS }, () => ({ date: '2010-01-01', amount: -1234567.891234567 })),
      nav: { date: '2020-01-01', amount: 1 },
      index: Array.from({ length: 15_000 }, (_, i) => ({ date: '2010-01-01', level: 1000 + i / 7 })),
    });
    expect(huge.length).toBeGreaterThan(1024 * 1024);
    const tooLarge = await calculate(huge);
    expect(tooLarge.status).toBe(413);
    expect((tooLarge.body as unknown as ErrorAnswer).error.code).toBe('too_large');
  });

  it(`computes ${MAX_FLOWS} flows changing sign at every date, the most it takes`, async () => {
    const start = Date.UTC(1990, 0, 1) / 86_400_000;
    const many = Array.from({ length: MAX_FLOWS }, (_, i) => ({
      date: new Date((start + i) * 86_400_000).toISOString().slice(0, 10),
      amount: i % 2 === 0 ? -100 : 101,
    }));
    const levels = many.map(({ date }, i) => ({ date, level: 100 + i / 100 }));
    const answer = await calculate({
      flows: many,
      nav: { date: many.at(-1)?.date, amount: 50 },
      index: levels.slice(0, 15_000),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.tvpi).toMatchObject({ value: expect.any(Number) });
  });

  it(`answers 429 with Retry-After past ${analyticsLimiter.limit} computations a minute by one user`, async () => {
    const { token } = await signInWithPermissions(server, []);
    const small = { flows: [{ date: '2020-01-01', amount: -100 }], nav: { date: '2021-01-01', amount: 110 } };
    for (let i = 0; i < analyticsLimiter.limit; i++) expect((await calculate(small, token)).status).toBe(200);
    const response = await fetch(`${server.url}${PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(small),
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another user is not held up.
    expect((await calculate(small)).status).toBe(200);
  });

  it('is described in the OpenAPI document with its body and answer', async () => {
    const document = (await (await server.fetch('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
    };
    const operation = document.paths[PATH]?.post;
    expect(operation?.requestBody).toBeDefined();
    expect(Object.keys(operation?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '400', '401', '413', '429']),
    );
    expect(JSON.stringify(operation?.responses['200'])).toContain('directAlpha');
  });
});
