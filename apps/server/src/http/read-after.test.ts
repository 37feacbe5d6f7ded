import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/** The Read-After header without a read replica (with one: routes/read-replica.test.ts). */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('Read-After without a read replica', () => {
  it('is refused with 400 naming the header when it is no position, on reads and writes alike', async () => {
    for (const [method, sent] of [
      ['GET', 'yesterday'],
      ['GET', '0/16B3748/1'],
      ['POST', '0/G'],
      ['GET', '123456789/0'],
    ] as const) {
      const answer = await server.fetch(method === 'GET' ? '/api/v1/companies' : '/api/v1/companies/query', {
        method,
        headers: { 'read-after': sent, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
        ...(method === 'POST' ? { body: '{}' } : {}),
      });
      expect(answer.status).toBe(400);
      const body = (await answer.json()) as { error: { fields: Record<string, string> } };
      expect(body.error.fields['read-after']).toMatch(/^Expected a position/);
    }
  });

  it('is taken and answered as usual when it is one, and writes answer none', async () => {
    const listed = await server.fetch('/api/v1/companies?pageSize=1', { headers: { 'read-after': '0/16B3748' } });
    expect(listed.status).toBe(200);
    const created = await server.fetch('/api/v1/companies', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Read After Ltd' }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('read-after')).toBeNull();
  });
});
