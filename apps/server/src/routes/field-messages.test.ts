import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, adminClient, errorOf } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * A refused number says what the field takes, derived from its description,
 * in the 400's per-field messages; a founded year cannot be in the future
 * (checked against the clock, over HTTP against a real database).
 */
let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  admin = adminClient(server);
});

afterAll(async () => server?.close());

const refused = async (path: string, body: Record<string, unknown>) => {
  const answer = await admin.post(path, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  return errorOf(answer).fields;
};

describe('a refused number', () => {
  it('says what the field takes, in words people use', async () => {
    const employees = 'Employees must be a whole number of 0 or more';
    expect(await refused('/api/v1/companies', { name: 'Minus', employees: -5 })).toEqual({ employees });
    expect(await refused('/api/v1/companies', { name: 'Half', employees: 2.5 })).toEqual({ employees });
    expect(await refused('/api/v1/companies', { name: 'Many', employees: 'many' })).toEqual({ employees });
    expect(await refused('/api/v1/funds', { name: 'Big', currency: 'USD', targetSize: -1 })).toEqual({
      targetSize: 'Target size must be a number of 0 or more',
    });
  });
});

describe('a founded year', () => {
  const thisYear = new Date().getUTCFullYear();

  it('cannot be in the future', async () => {
    expect(await refused('/api/v1/companies', { name: 'Tomorrow Labs', foundedYear: thisYear + 5 })).toEqual({
      foundedYear: `Founded must be a year from 1800 to ${thisYear}`,
    });
    expect(await refused('/api/v1/firms', { name: 'Tomorrow Capital', foundedYear: thisYear + 1 })).toEqual({
      foundedYear: `Founded must be a year from 1800 to ${thisYear}`,
    });
  });

  it('may be this year', async () => {
    const made = await admin.post('/api/v1/companies', { name: 'Today Labs', foundedYear: thisYear });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
  });
});
