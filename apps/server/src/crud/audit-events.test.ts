import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithPermissions, withToken } from '../testing/accounts.ts';
import { type ApiClient, adminClient, type Factories, factories, type Row, uploadFile } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * What the audit events tell an administrator about record changes and
 * refusals: who, which record, which fields (never the values), and which
 * route refused whom for lack of which permission.
 */

let server: TestServer;
let admin: ApiClient;
let make: Factories;
let adminId: number;

beforeAll(async () => {
  server = await startTestServer();
  admin = adminClient(server);
  make = factories(admin);
  adminId = (await admin.get('/api/v1/auth/me')).body.id;
});

afterAll(async () => server?.close());

/** The events of a type whose details start with `about`, newest first. */
async function events(type: string, about: string): Promise<Row[]> {
  const answer = await admin.list('/api/v1/audit-events', {
    'filter[type]': type,
    sort: '-id',
    pageSize: 100,
    select: 'type,actorId,ip,details',
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data.filter((event) => String(event.details).startsWith(about));
}

describe('record changes', () => {
  it('are recorded one per record: created, the fields an update sent, deleted; never the values', async () => {
    const first = await make.company({ name: 'Secret Holdings' });
    const second = await make.company();
    const updated = await admin.patch(
      `/api/v1/companies/${first.id}`,
      { legalName: 'Secret Holdings SA', employees: 12 },
      first.version as number,
    );
    expect(updated.status).toBe(200);
    for (const { id } of [first, second]) expect((await admin.delete(`/api/v1/companies/${id}`)).status).toBe(204);

    const created = await events('recordCreated', `companies ${first.id}`);
    expect(created).toEqual([expect.objectContaining({ actorId: adminId, details: `companies ${first.id}` })]);
    expect(created[0]?.ip).toBe('127.0.0.1');
    expect(await events('recordUpdated', `companies ${first.id}`)).toEqual([
      expect.objectContaining({ actorId: adminId, details: `companies ${first.id}: legalName, employees` }),
    ]);
    for (const { id } of [first, second]) {
      expect(await events('recordDeleted', `companies ${id}`)).toEqual([
        expect.objectContaining({ actorId: adminId, details: `companies ${id}` }),
      ]);
    }
    const latest = await admin.list('/api/v1/audit-events', { sort: '-id', pageSize: 100, select: 'details' });
    expect(latest.body.data.filter((event) => String(event.details).includes('Secret'))).toEqual([]);
  });

  it('are recorded for every record type, under its own name, uploads too', async () => {
    const company = await make.company();
    const note = await make.note('companies', company.id);
    expect(await events('recordCreated', `notes ${note.id}`)).toHaveLength(1);
    const upload = await uploadFile(admin, 'companies', company.id, new TextEncoder().encode('minutes'), 'minutes.txt');
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    expect(await events('recordCreated', `files ${upload.body.id}`)).toHaveLength(1);
  });

  it('leave no event when the change does not happen', async () => {
    const company = await make.company();
    const stale = await admin.patch(`/api/v1/companies/${company.id}`, { legalName: 'Late' }, 99);
    expect(stale.status).toBe(412);
    const staleDelete = await admin.delete(`/api/v1/companies/${company.id}`, 99);
    expect(staleDelete.status).toBe(412);
    const missing = await admin.delete('/api/v1/companies/999999999');
    expect(missing.status).toBe(404);
    expect(await events('recordUpdated', `companies ${company.id}`)).toEqual([]);
    expect(await events('recordDeleted', `companies ${company.id}`)).toEqual([]);
    expect(await events('recordDeleted', 'companies 999999999')).toEqual([]);
  });
});

describe('refusals', () => {
  let reader: { token: string; userId: number };
  let api: ApiClient;

  beforeAll(async () => {
    reader = await signInWithPermissions(server, ['companies:read']);
    api = withToken(server.url, reader.token);
  });

  it('are recorded with the caller, the method, the route pattern and the missing permission', async () => {
    const company = await make.company();
    expect((await api.post('/api/v1/companies', { name: 'Not allowed' })).status).toBe(403);
    expect((await api.delete(`/api/v1/companies/${company.id}`)).status).toBe(403);
    const refused = await events('accessRefused', '');
    const mine = refused.filter((event) => event.actorId === reader.userId);
    expect(mine.map((event) => event.details)).toEqual([
      expect.stringMatching(/^DELETE \/api\/v1\/companies\/:id: .*companies:delete/),
      expect.stringMatching(/^POST \/api\/v1\/companies: .*companies:create/),
    ]);
  });

  it('name the route matched, not the path as it was spelled', async () => {
    const spelled = await api.post('/api/v%31/%63ompanies', { name: 'Not allowed' });
    expect(spelled.status).toBe(403);
    const [latest] = (await events('accessRefused', '')).filter((event) => event.actorId === reader.userId);
    expect(latest?.details).toMatch(/^POST \/api\/v1\/companies: /);
  });

  it('are not recorded for callers without a token (they are not anyone yet)', async () => {
    const before = (await events('accessRefused', '')).length;
    const anonymous = await fetch(`${server.url}/api/v1/companies`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    expect((await events('accessRefused', '')).length).toBe(before);
  });
});
