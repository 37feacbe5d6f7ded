import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Answer, type ApiClient, adminClient, apiClient, factories, type Row } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/** Every way a request can be refused, and the one shape every refusal has. */

let server: TestServer;
let api: ApiClient;
let company: Row;
let contact: Row;

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  const make = factories(api);
  company = await make.company({ name: 'Acme' });
  contact = await make.contact({ email: 'taken@example.com' });
});

afterAll(async () => server?.close());

const errorShape = z.strictObject({
  error: z.strictObject({
    code: z.string().min(1),
    message: z.string().min(1),
    fields: z.record(z.string(), z.string()).optional(),
    issues: z
      .record(
        z.string(),
        z.strictObject({
          code: z.string().regex(/^[a-z_]+$/),
          params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
        }),
      )
      .optional(),
  }),
});

/**
 * Asserts the status, the code and the shape `{ error: { code, message, fields?, issues? } }`, each field's
 * message with its issue's code; answers the field messages.
 */
function refused(answer: Answer<unknown>, status: number, code: string): Record<string, string> {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  const body = errorShape.parse(answer.body);
  expect(body.error.code).toBe(code);
  expect(Object.keys(body.error.issues ?? {}).sort()).toEqual(Object.keys(body.error.fields ?? {}).sort());
  return body.error.fields ?? {};
}

describe('list parameters', () => {
  it('an unknown field in select, sort, filter or join is named', async () => {
    const list = (query: Record<string, string>) => api.list('/api/v1/companies', query);
    expect(refused(await list({ select: 'name,bogus' }), 400, 'validation_failed')).toEqual({
      select: 'Unknown field bogus',
    });
    expect(refused(await list({ sort: '-bogus' }), 400, 'validation_failed')).toEqual({ sort: 'Unknown field bogus' });
    expect(refused(await list({ 'filter[bogus][eq]': 'x' }), 400, 'validation_failed')).toEqual({
      'filter[bogus][eq]': 'Unknown field bogus',
    });
    expect(refused(await list({ 'filter[bogus]': 'x' }), 400, 'validation_failed')).toEqual({
      'filter[bogus]': 'Unknown field bogus',
    });
    expect(refused(await list({ join: 'bogus(name)' }), 400, 'validation_failed')).toEqual({
      join: 'Unknown relation bogus',
    });
    expect(refused(await list({ join: 'hqCountry(bogus)' }), 400, 'validation_failed')).toEqual({
      'join[hqCountry]': 'Unknown field bogus',
    });
    expect(refused(await list({ whatever: '1' }), 400, 'validation_failed')).toEqual({
      whatever: 'Unknown parameter whatever',
    });
  });

  it('every bad parameter is named at once', async () => {
    const fields = refused(
      await api.list('/api/v1/companies', { select: 'nope1', sort: 'nope2', 'filter[nope3][eq]': '1' }),
      400,
      'validation_failed',
    );
    expect(Object.keys(fields).sort()).toEqual(['filter[nope3][eq]', 'select', 'sort']);
  });

  it('the same in POST /query and on one record', async () => {
    const fields = refused(
      await api.query('/api/v1/companies', {
        select: ['name', 'bogus'],
        where: { or: [{ field: 'ghost', op: 'eq', value: 1 }] },
      }),
      400,
      'validation_failed',
    );
    expect(fields).toEqual({ select: 'Unknown field bogus', 'where.or[0].ghost': 'Unknown field ghost' });
    expect(refused(await api.query('/api/v1/companies', { limit: 3 }), 400, 'validation_failed')).toHaveProperty(
      'limit',
    );
    const one = await api.get(`/api/v1/companies/${company.id}`, { select: 'bogus' });
    expect(refused(one, 400, 'validation_failed')).toEqual({ select: 'Unknown field bogus' });
  });

  it('an unknown operator, an operator that does not apply, or a bad value is refused', async () => {
    const filter = async (key: string, value: string) =>
      refused(await api.list('/api/v1/companies', { [key]: value }), 400, 'validation_failed')[key];
    expect(await filter('filter[name][like]', 'x')).toMatch(/Unknown operator like/);
    expect(await filter('filter[employees][contains]', '1')).toMatch(/contains does not apply to employees/);
    expect(await filter('filter[stage][gt]', 'Seed')).toMatch(/gt does not apply to stage/);
    expect(await filter('filter[tags][eq]', 'x')).toMatch(/eq does not apply to tags/);
    expect(await filter('filter[employees][eq]', 'ten')).toBe('Expected a whole number');
    expect(await filter('filter[employees][gt]', '')).toBe('Expected a whole number');
    expect(await filter('filter[revenue][gt]', '1,000')).toBe('Expected a number');
    expect(await filter('filter[createdAt][gt]', 'last week')).toMatch(/date/);
    expect(await filter('filter[stage][eq]', 'Series Z')).toMatch(/^Expected one of/);
    expect(await filter('filter[hqCountryId][eq]', 'FR')).toBe('Expected a whole number');
    expect(await filter('filter[name][isNull]', 'yes please')).toBe('Operator isNull takes no value');
    expect(await filter('filter[linkedinUrl][eq]', 'x')).toBe('Field linkedinUrl cannot be filtered');
  });

  it('a number the column cannot hold is refused, not a server error', async () => {
    const huge = await api.list('/api/v1/companies', { 'filter[employees][eq]': '99999999999' });
    expect(huge.status).toBe(400);
    errorShape.parse(huge.body);
    const hugeId = await api.list('/api/v1/companies', { 'filter[id][in]': '1,1e30' });
    expect(hugeId.status).toBe(400);
  });

  it('text the database cannot store (NUL) is refused in filters, search and cursors', async () => {
    const cursor = Buffer.from(JSON.stringify({ o: 'name,id', v: ['a\u0000b', 1] })).toString('base64url');
    for (const query of [
      { 'filter[name][eq]': 'a\u0000b' },
      { 'filter[city][in]': 'Oslo,a\u0000b' },
      { 'filter[name][contains]': '\u0000' },
      { q: 'a\u0000b' },
      { sort: 'name', cursor },
    ]) {
      refused(await api.list('/api/v1/companies', query), 400, 'validation_failed');
    }
    const where = { field: 'name', op: 'startsWith', value: '\u0000' };
    refused(await api.query('/api/v1/companies', { where }), 400, 'validation_failed');
  });

  it('unsortable fields, bad paging and bad cursors are refused', async () => {
    const list = (query: Record<string, string>) => api.list('/api/v1/companies', query);
    expect(refused(await list({ sort: 'description' }), 400, 'validation_failed')).toEqual({
      sort: 'Field description cannot be sorted',
    });
    expect(refused(await list({ pageSize: '1001' }), 400, 'validation_failed')).toEqual({
      pageSize: 'Too big: expected number to be <=1000',
    });
    expect(refused(await list({ pageSize: '0' }), 400, 'validation_failed')).toEqual({
      pageSize: 'Too small: expected number to be >=1',
    });
    expect(refused(await list({ page: '0' }), 400, 'validation_failed')).toEqual({
      page: 'Too small: expected number to be >=1',
    });
    expect(refused(await list({ page: 'two' }), 400, 'validation_failed')).toEqual({
      page: 'Invalid input: expected number, received NaN',
    });
    expect(refused(await list({ cursor: 'garbage' }), 400, 'validation_failed')).toEqual({
      cursor: 'This cursor is not valid for this list; start again from the first page',
    });
  });

  it('a search cursor carries one of the three ranks, nothing else', async () => {
    await api.post('/api/v1/companies', { name: 'Acme Two' });
    const list = (query: Record<string, string>) => api.list('/api/v1/companies', query);
    const search = { q: 'acme', pageSize: '1', select: 'name' };
    const first = await list(search);
    const { o, v } = JSON.parse(Buffer.from(String(first.body.nextCursor), 'base64url').toString()) as {
      o: string;
      v: unknown[];
    };
    expect(o.startsWith('rank,')).toBe(true);
    const withRank = (rank: unknown) =>
      Buffer.from(JSON.stringify({ o, v: [rank, ...v.slice(1)] })).toString('base64url');
    for (const rank of [0, 1, 2]) expect((await list({ ...search, cursor: withRank(rank) })).status).toBe(200);
    for (const rank of [3, -1, 0.5, '1', true, null, 1e308]) {
      expect(refused(await list({ ...search, cursor: withRank(rank) }), 400, 'validation_failed')).toEqual({
        cursor: 'This cursor is not valid for this list; start again from the first page',
      });
    }
  });
});

describe('create and update bodies', () => {
  it('refuses properties the client may not write, naming each, and writes nothing', async () => {
    for (const key of ['id', 'version', 'createdById', 'updatedById', 'createdAt', 'updatedAt', 'domain', 'bogus']) {
      const answer = await api.post('/api/v1/companies', { name: 'Sneaky', [key]: key.endsWith('At') ? 'x' : 7 });
      expect(refused(answer, 400, 'validation_failed')).toEqual({ [key]: 'Unknown field' });
    }
    const contactAnswer = await api.post('/api/v1/contacts', { firstName: 'A', lastName: 'B', fullName: 'X Y' });
    expect(refused(contactAnswer, 400, 'validation_failed')).toEqual({ fullName: 'Unknown field' });
    const sneaky = await api.list('/api/v1/companies', { 'filter[name][eq]': 'Sneaky', count: 'exact' });
    expect(sneaky.body.total).toBe(0);

    for (const key of ['id', 'version', 'createdById', 'createdAt', 'bogus']) {
      const answer = await api.patch(`/api/v1/companies/${company.id}`, { name: 'Renamed', [key]: 9 }, 1);
      expect(refused(answer, 400, 'validation_failed')).toEqual({ [key]: 'Unknown field' });
    }
    const unchanged = await api.get(`/api/v1/companies/${company.id}`);
    expect(unchanged.body).toMatchObject({ name: 'Acme', version: 1 });
  });

  it('refuses changing what is written once', async () => {
    const note = await factories(api).note('companies', company.id as number);
    const moved = await api.patch(`/api/v1/notes/${note.id}`, { recordId: contact.id }, 1);
    expect(refused(moved, 400, 'validation_failed')).toEqual({ recordId: 'Unknown field' });
  });

  it('names missing required fields with "Required"', async () => {
    expect(refused(await api.post('/api/v1/companies', {}), 400, 'validation_failed')).toEqual({ name: 'Required' });
    expect(refused(await api.post('/api/v1/companies', { name: '   ' }), 400, 'validation_failed')).toEqual({
      name: 'Required',
    });
    expect(refused(await api.post('/api/v1/contacts', { email: 'x@example.com' }), 400, 'validation_failed')).toEqual({
      firstName: 'Required',
      lastName: 'Required',
    });
    expect(refused(await api.post('/api/v1/funds', { name: 'No currency' }), 400, 'validation_failed')).toEqual({
      currency: 'Required',
    });
    const cleared = await api.patch(`/api/v1/companies/${company.id}`, { name: null }, 1);
    expect(refused(cleared, 400, 'validation_failed')).toEqual({ name: 'Required' });
    // A required field of a type with its own message says Required too, missing or null (a link's record).
    const deal = await factories(api).deal();
    for (const investorId of [undefined, null]) {
      const link = await api.post('/api/v1/dealInvestors', { dealId: deal.id, investorId });
      expect(refused(link, 400, 'validation_failed')).toEqual({ investorId: 'Required' });
    }
  });

  it('names values of the wrong kind', async () => {
    const create = async (values: Record<string, unknown>) =>
      refused(await api.post('/api/v1/companies', { name: 'Typed', ...values }), 400, 'validation_failed');
    expect(await create({ employees: 'many' })).toEqual({ employees: 'Employees must be a whole number of 0 or more' });
    expect(await create({ employees: -1 })).toHaveProperty('employees');
    expect(await create({ stage: 'Series Z' })).toEqual({ stage: expect.stringMatching(/^Expected one of/) });
    expect(await create({ website: 'ftp://x.example' })).toEqual({
      website: 'Expected a web address starting with http:// or https://',
    });
    expect(await create({ revenue: 5 })).toEqual({ revenue: 'Invalid input: expected object, received number' });
    expect(await create({ revenue: { amount: 5 } })).toEqual({ 'revenue.currency': 'Required' });
    expect(await create({ revenue: { amount: 5, currency: 'usd' } })).toEqual({
      'revenue.currency': 'Expected an ISO 4217 currency code such as USD',
    });
    expect(await create({ tags: 'one' })).toEqual({ tags: 'Invalid input: expected array, received string' });
    expect(await create({ foundedYear: 1200 })).toEqual({
      foundedYear: `Founded must be a year from 1800 to ${new Date().getUTCFullYear()}`,
    });
    expect(await create({ hqCountryId: 'FR' })).toEqual({ hqCountryId: 'Expected the id of a record' });
    expect(await create({ city: 'Os\u0000lo' })).toEqual({ city: 'Cannot contain the NUL character' });
    expect(await create({ tags: ['ok', '\u0000'] })).toEqual({ 'tags.1': 'Cannot contain the NUL character' });
    // A URL parser would encode NUL; the schema refuses it first, naming the field.
    expect(await create({ website: 'https://example.com/a\u0000b' })).toEqual({
      website: 'Cannot contain the NUL character',
    });
    const email = await api.post('/api/v1/contacts', { firstName: 'A', lastName: 'B', email: 'not-an-email' });
    expect(refused(email, 400, 'validation_failed')).toEqual({ email: 'Expected an email address' });
  });

  it('names a reference to a record that does not exist', async () => {
    const answer = await api.post('/api/v1/companies', { name: 'Lost', hqCountryId: 999_999 });
    expect(refused(answer, 400, 'validation_failed')).toEqual({ hqCountryId: 'No such record' });
    const currency = await api.post('/api/v1/companies', { name: 'Lost', revenue: { amount: 1, currency: 'ZZZ' } });
    expect(refused(currency, 400, 'validation_failed')).toEqual({ 'revenue.currency': 'No such record' });
    const update = await api.patch(`/api/v1/companies/${company.id}`, { ownerId: 999_999 }, 1);
    expect(refused(update, 400, 'validation_failed')).toEqual({ ownerId: 'No such record' });
    const link = await api.post('/api/v1/contactCompanies', { contactId: contact.id, companyId: 999_999 });
    expect(refused(link, 400, 'validation_failed')).toEqual({ companyId: 'No such record' });
    const note = await api.post('/api/v1/notes', { entity: 'companies', recordId: 999_999, body: 'Lost' });
    expect(refused(note, 400, 'validation_failed')).toHaveProperty('recordId');
  });

  it('names the field of a unique conflict with 409', async () => {
    const duplicate = await api.post('/api/v1/contacts', { firstName: 'A', lastName: 'B', email: 'TAKEN@example.com' });
    expect(refused(duplicate, 409, 'conflict')).toEqual({ email: 'Already used' });
    const other = await factories(api).contact();
    const update = await api.patch(`/api/v1/contacts/${other.id}`, { email: 'taken@example.com' }, 1);
    expect(refused(update, 409, 'conflict')).toEqual({ email: 'Already used' });
    await factories(api).link('contactCompanies', { contactId: contact.id, companyId: company.id });
    const twice = await api.post('/api/v1/contactCompanies', { contactId: contact.id, companyId: company.id });
    expect(refused(twice, 409, 'conflict')).toEqual({ contactId: 'Already used', companyId: 'Already used' });
  });

  it('refuses an update with nothing in it', async () => {
    expect(refused(await api.patch(`/api/v1/companies/${company.id}`, {}, 1), 400, 'validation_failed')).toHaveProperty(
      'body',
    );
  });
});

describe('records and versions', () => {
  it('answers 404 for a record that does not exist, 400 for an id that cannot be one', async () => {
    refused(await api.get('/api/v1/companies/999999'), 404, 'not_found');
    refused(await api.patch('/api/v1/companies/999999', { name: 'X' }, 1), 404, 'not_found');
    refused(await api.delete('/api/v1/companies/999999'), 404, 'not_found');
    refused(await api.get('/api/v1/companies/abc'), 400, 'validation_failed');
    refused(await api.get('/api/v1/companies/0'), 400, 'validation_failed');
    refused(await api.get('/api/v1/companies/99999999999999999999'), 400, 'validation_failed');
    refused(await api.get('/api/v1/nothing'), 404, 'not_found');
    refused(await api.post('/api/v1/countries', { name: 'Atlantis' }), 404, 'not_found');
  });

  it('needs If-Match to update (428), refuses a stale one (412) and a malformed one (400)', async () => {
    const missing = await api.patch(`/api/v1/companies/${company.id}`, { city: 'Paris' });
    expect(refused(missing, 428, 'precondition_required')).toEqual({ 'if-match': 'Required' });
    const malformed = await api.patch(`/api/v1/companies/${company.id}`, { city: 'Paris' }, 'yesterday');
    expect(refused(malformed, 400, 'validation_failed')).toHaveProperty('if-match');
    const stale = await api.patch(`/api/v1/companies/${company.id}`, { city: 'Paris' }, 7);
    expect(refused(stale, 412, 'stale_version')).toEqual({ version: 'Current version is 1' });
    const weak = await api.patch(`/api/v1/companies/${company.id}`, { city: 'Paris' }, 'W/"1"');
    expect(weak.status).toBe(200);
    expect(weak.body).toMatchObject({ city: 'Paris', version: 2 });
    expect(weak.headers.get('etag')).toBe('"2"');
    const staleDelete = await api.delete(`/api/v1/companies/${company.id}`, 1);
    refused(staleDelete, 412, 'stale_version');
    expect((await api.get(`/api/v1/companies/${company.id}`)).status).toBe(200);
  });
});

describe('bodies and transport', () => {
  it('answers malformed JSON with malformed_json', async () => {
    for (const [method, path] of [
      ['POST', '/api/v1/companies'],
      ['PATCH', `/api/v1/companies/${company.id}`],
      ['POST', '/api/v1/companies/query'],
    ] as const) {
      const answer = await api.send(method, path, {
        body: '{"name": "Acme",',
        headers: { 'content-type': 'application/json', 'if-match': '1' },
      });
      refused(answer, 400, 'malformed_json');
    }
    const empty = await api.send('POST', '/api/v1/companies', {
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    refused(empty, 400, 'malformed_json');
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const answer = await api.post('/api/v1/companies', { name: 'Big', description: 'x'.repeat(1024 * 1024 + 10) });
    refused(answer, 413, 'too_large');
  });

  it('refuses a body of a type it does not read with 415, and text where an object belongs with 400', async () => {
    const xml = await api.send('POST', '/api/v1/companies', {
      body: '<company name="Acme"/>',
      headers: { 'content-type': 'application/xml' },
    });
    refused(xml, 415, 'unsupported_media_type');
    const text = await api.send('POST', '/api/v1/companies', {
      body: 'name=Acme',
      headers: { 'content-type': 'text/plain' },
    });
    refused(text, 400, 'validation_failed');
  });

  it('answers 401 without a token, in the same shape', async () => {
    const anonymous = apiClient(server.url);
    refused(await anonymous.list('/api/v1/companies'), 401, 'unauthenticated');
    refused(await anonymous.post('/api/v1/companies', { name: 'X' }), 401, 'unauthenticated');
  });
});
