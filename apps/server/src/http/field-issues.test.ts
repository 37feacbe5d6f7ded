import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, adminClient, apiClient, errorOf, factories } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * A 400's per-field messages carry stable codes (`issues`) beside their text;
 * the text is in the language the request asks for (Accept-Language: the web
 * app sends its own), the top-level message stays English for API users.
 */
let server: TestServer;
let admin: ApiClient;
let french: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  admin = adminClient(server);
  french = apiClient(server.url, { authorization: `Bearer ${server.token}`, 'accept-language': 'fr-FR,fr;q=0.9' });
});

afterAll(async () => server?.close());

describe('per-field issues', () => {
  it('name a reference to a record that is gone, in English and in French', async () => {
    const fund = await factories(admin).fund();
    expect((await admin.delete(`/api/v1/funds/${fund.id}`)).status).toBe(204);
    const body = { name: 'Orphan deal', fundId: fund.id };

    const english = await admin.post('/api/v1/deals', body);
    expect(english.status, JSON.stringify(english.body)).toBe(400);
    expect(errorOf(english)).toMatchObject({
      fields: { fundId: 'No such record' },
      issues: { fundId: { code: 'no_such_record' } },
    });

    const inFrench = await french.post('/api/v1/deals', body);
    expect(inFrench.status).toBe(400);
    expect(errorOf(inFrench)).toMatchObject({
      message: errorOf(english).message,
      fields: { fundId: 'Cette fiche n’existe pas ou plus' },
      issues: { fundId: { code: 'no_such_record' } },
    });
  });

  it('name an unknown field, through the route schema and through a custom-field-aware body check', async () => {
    // Links are checked by the route's schema; companies (custom fields) by validateBody.
    for (const path of ['/api/v1/dealInvestors', '/api/v1/companies']) {
      const answer = await french.post(path, { name: 'Anything', bogus: 1 });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      const error = errorOf(answer);
      expect(error.fields?.bogus, path).toBe('Champ inconnu');
      expect((error as { issues?: Record<string, unknown> }).issues?.bogus, path).toEqual({ code: 'unknown_field' });
      expect(error.message, path).toMatch(/^The request body is not valid/);
    }
  });

  it("give a validation issue's code and bounds; a rule of the field keeps its words for the client to translate", async () => {
    const answer = await french.post('/api/v1/companies', { name: 'Minus', employees: -5 });
    expect(answer.status).toBe(400);
    const error = errorOf(answer) as { fields?: Record<string, string>; issues?: Record<string, { code: string }> };
    expect(error.fields?.employees).toBe('Employees must be a whole number of 0 or more');
    expect(error.issues?.employees?.code).toMatch(/^[a-z_]+$/);
    expect(error.issues?.employees?.code).not.toBe('other');
  });
});
