import { builtInRoles, dataPermissions, type Permission } from '@data-platform/shared/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountServer, invitedUser, roleIdOf, type TestUser } from '../testing/accounts.ts';
import {
  type Answer,
  type ApiClient,
  adminClient,
  errorOf,
  type Factories,
  factories,
  type Row,
  unique,
} from '../testing/factories.ts';
import { outboxMailbox } from '../testing/mail.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * Built-in and custom roles, and what they allow on every kind of route:
 * 403 naming the missing permission, rows of unreadable entities never
 * listed, joined or attached. Mail goes to the outbox (no SMTP_URL).
 */

const PUBLIC_URL = 'https://data.example.test';
let server: TestServer;
let admin: ApiClient;
let make: Factories;
let accounts: AccountServer;
const roleIds: Record<string, number> = {};

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL });
  admin = adminClient(server);
  make = factories(admin);
  accounts = { url: server.url, publicUrl: PUBLIC_URL, admin, mailbox: outboxMailbox(admin) };
  for (const { name } of builtInRoles) roleIds[name] = await roleIdOf(admin, name);
});

afterAll(async () => server?.close());

function expectForbidden(answer: Answer<unknown>, permission: Permission) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(403);
  expect(errorOf(answer)).toMatchObject({ code: 'forbidden', message: expect.stringContaining(permission) });
}

async function createRole(permissions: readonly Permission[]): Promise<Row> {
  const answer = await admin.post('/api/v1/roles', { name: unique('Role'), permissions });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

function upload(api: ApiClient, entity: string, recordId: number, name: string) {
  const form = new FormData();
  form.append('file', new Blob([`bytes of ${name}`], { type: 'text/plain' }), name);
  return api.send<Row>('POST', `/api/v1/files?entity=${entity}&recordId=${recordId}`, { body: form });
}

describe('built-in roles', () => {
  it('Administrator holds everything, Editor every data action, Viewer reading and export', async () => {
    const answer = await admin.list('/api/v1/roles', { 'filter[builtIn]': 'true', sort: 'name', pageSize: 10 });
    const byName = Object.fromEntries(answer.body.data.map((r) => [r.name, new Set(r.permissions as string[])]));
    expect(Object.keys(byName)).toEqual(['Administrator', 'Editor', 'Viewer']);
    expect(byName.Administrator).toEqual(
      new Set([...dataPermissions, 'users:read', 'users:manage', 'roles:manage', 'customFields:manage']),
    );
    expect(byName.Editor).toEqual(new Set(dataPermissions));
    expect(byName.Viewer).toEqual(new Set(dataPermissions.filter((p) => /:(read|export)$/.test(p))));
  });

  it('cannot be changed or deleted', async () => {
    for (const name of ['Administrator', 'Editor', 'Viewer']) {
      const id = roleIds[name] as number;
      const { version } = (await admin.get(`/api/v1/roles/${id}`)).body;
      for (const answer of [
        await admin.patch(`/api/v1/roles/${id}`, { permissions: ['companies:read'] }, Number(version)),
        await admin.patch(`/api/v1/roles/${id}`, { name: `${name} 2` }, Number(version)),
        await admin.delete(`/api/v1/roles/${id}`),
      ]) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(409);
        expect(errorOf(answer).code).toBe('built_in_role');
      }
    }
    const admins = await admin.get(`/api/v1/roles/${roleIds.Administrator}`);
    expect(admins.body).toMatchObject({ name: 'Administrator', builtIn: true });
  });
});

describe('a Viewer', () => {
  let viewer: TestUser;
  let company: Row;

  beforeAll(async () => {
    viewer = await invitedUser(accounts, roleIds.Viewer as number);
    company = await make.company();
  });

  it('reads data and the lists of users and roles', async () => {
    expect((await viewer.api.get(`/api/v1/companies/${company.id}`)).status).toBe(200);
    expect((await viewer.api.list('/api/v1/deals', { join: 'investors(name)' })).status).toBe(200);
    expect((await viewer.api.list('/api/v1/users')).status).toBe(200);
    expect((await viewer.api.list('/api/v1/roles')).status).toBe(200);
  });

  it('gets 403 naming the permission on create, update and delete, before the input is checked', async () => {
    expectForbidden(await viewer.api.post('/api/v1/companies', { name: 'Refused' }), 'companies:create');
    expectForbidden(await viewer.api.post('/api/v1/companies', { nonsense: true }), 'companies:create');
    expectForbidden(await viewer.api.patch(`/api/v1/companies/${company.id}`, { name: 'x' }, 1), 'companies:update');
    expectForbidden(await viewer.api.delete(`/api/v1/companies/${company.id}`), 'companies:delete');
    expectForbidden(
      await viewer.api.post('/api/v1/notes', { entity: 'companies', recordId: company.id, body: 'x' }),
      'notes:create',
    );
    expectForbidden(await upload(viewer.api, 'companies', Number(company.id), 'a.txt'), 'files:create');
    expect((await admin.get(`/api/v1/companies/${company.id}`)).body).toMatchObject({ name: company.name });
  });

  it('gets 403 naming the permission on administration routes', async () => {
    const { api } = viewer;
    expectForbidden(
      await api.post('/api/v1/users/invitations', { email: 'x@test.example', roleId: 1 }),
      'users:manage',
    );
    expectForbidden(await api.post(`/api/v1/users/${viewer.id}/resend-invitation`, undefined), 'users:manage');
    expectForbidden(
      await api.post(`/api/v1/users/${viewer.id}/approve`, { roleId: roleIds.Administrator }),
      'users:manage',
    );
    expectForbidden(await api.send('POST', `/api/v1/users/${viewer.id}/reject`), 'users:manage');
    expectForbidden(
      await api.patch(`/api/v1/users/${viewer.id}`, { roleId: roleIds.Administrator }, 1),
      'users:manage',
    );
    expectForbidden(await api.delete(`/api/v1/users/${viewer.id}`), 'users:manage');
    expectForbidden(await api.post('/api/v1/roles', { name: 'Mine', permissions: ['users:manage'] }), 'roles:manage');
    expectForbidden(await api.patch(`/api/v1/roles/${roleIds.Viewer}`, { name: 'x' }, 1), 'roles:manage');
    expectForbidden(await api.delete(`/api/v1/roles/${roleIds.Viewer}`), 'roles:manage');
    expectForbidden(await api.list('/api/v1/outbox'), 'users:manage');
    expectForbidden(await api.list('/api/v1/audit-events'), 'users:manage');
    expect((await api.get('/api/v1/auth/me')).body).toMatchObject({ role: { name: 'Viewer' } });
  });
});

describe('an Editor', () => {
  it('changes every kind of data but neither users nor roles', async () => {
    const editor = await invitedUser(accounts, roleIds.Editor as number);
    const mine = factories(editor.api);
    const company = await mine.company();
    const investor = await mine.investor();
    await mine.note('investors', investor.id);
    const renamed = await editor.api.patch(`/api/v1/companies/${company.id}`, { name: unique('Renamed') }, 1);
    expect(renamed.status).toBe(200);
    expect((await editor.api.delete(`/api/v1/companies/${company.id}`)).status).toBe(204);
    expect((await upload(editor.api, 'investors', investor.id, 'memo.txt')).status).toBe(201);
    expectForbidden(await editor.api.list('/api/v1/outbox'), 'users:manage');
    expectForbidden(await editor.api.post('/api/v1/roles', { name: unique('Role') }), 'roles:manage');
    expectForbidden(
      await editor.api.post('/api/v1/users/invitations', { email: 'y@test.example', roleId: 1 }),
      'users:manage',
    );
  });
});

describe('custom roles', () => {
  it('take effect at the next request of their users, for role edits and role changes', async () => {
    const role = await createRole(['companies:read']);
    const user = await invitedUser(accounts, role.id);
    expectForbidden(await user.api.post('/api/v1/companies', { name: unique('Company') }), 'companies:create');
    expectForbidden(await user.api.list('/api/v1/funds'), 'funds:read');

    const edited = await admin.patch(
      `/api/v1/roles/${role.id}`,
      { permissions: ['companies:read', 'companies:create', 'funds:read'] },
      Number(role.version),
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await user.api.post('/api/v1/companies', { name: unique('Company') })).status).toBe(201);
    expect((await user.api.list('/api/v1/funds')).status).toBe(200);
    expect((await user.api.get('/api/v1/auth/me')).body).toMatchObject({
      role: { name: role.name, permissions: ['companies:read', 'companies:create', 'funds:read'] },
    });

    const { version } = (await admin.get(`/api/v1/users/${user.id}`)).body;
    expect((await admin.patch(`/api/v1/users/${user.id}`, { roleId: roleIds.Viewer }, Number(version))).status).toBe(
      200,
    );
    expectForbidden(await user.api.post('/api/v1/companies', { name: unique('Company') }), 'companies:create');
  });

  it('refuse a taken name and unknown permissions', async () => {
    const taken = await admin.post('/api/v1/roles', { name: 'Administrator', permissions: [] });
    expect(taken.status).toBe(409);
    const unknown = await admin.post('/api/v1/roles', { name: unique('Role'), permissions: ['everything:ever'] });
    expect(unknown.status).toBe(400);
    expect(errorOf(unknown).fields).toHaveProperty('permissions.0');
  });

  it('cannot be deleted while given to a user (409), and can be once no one has them', async () => {
    const role = await createRole(['deals:read']);
    const user = await invitedUser(accounts, role.id);
    const inUse = await admin.delete(`/api/v1/roles/${role.id}`);
    expect(inUse.status).toBe(409);
    expect(errorOf(inUse).code).toBe('role_in_use');

    const { version } = (await admin.get(`/api/v1/users/${user.id}`)).body;
    await admin.patch(`/api/v1/users/${user.id}`, { roleId: roleIds.Viewer }, Number(version));
    expect((await admin.delete(`/api/v1/roles/${role.id}`)).status).toBe(204);
    expect((await admin.get(`/api/v1/roles/${role.id}`)).status).toBe(404);
    const events = await admin.list('/api/v1/audit-events', {
      'filter[type][in]': 'roleCreated,roleDeleted',
      sort: 'createdAt',
      pageSize: 1000,
    });
    expect(events.body.data.filter((e) => e.details === role.name)).toMatchObject([
      { type: 'roleCreated', actorId: role.createdById },
      { type: 'roleDeleted', actorId: role.createdById },
    ]);
  });
});

describe('a role with no permissions', () => {
  /**
   * Routes anyone signed in may use: their own account, the user and role lists, reference data, the
   * definitions of custom fields (forms and lists need them), the dashboard, their own saved views
   * (a view of a list they may not read answers 404, not 403: another user's views are not theirs to know),
   * the fund metrics calculator (it computes over the body and reads no stored data), recent activity and
   * global search (each tells only what the reader's lists show).
   */
  const readable = 'users|roles|countries|currencies|states|entityFieldTypes|custom-data|customFieldGroups';
  const allowed = [
    /^GET \/api\/v1\/auth\/me$/,
    new RegExp(`^GET /api/v1/(${readable})(/1|/1/(states|fields)(/totals)?|/aggregates)?$`),
    new RegExp(`^POST /api/v1/(${readable})/query$`),
    /^GET \/api\/v1\/configs\/summaries$/,
    // Recent activity is open like the dashboard: it tells each reader only what their lists show (empty here).
    /^GET \/api\/v1\/activity$/,
    // Global search likewise: each record type only to its readers (none here, so no results).
    /^GET \/api\/v1\/search$/,
    /^(GET|POST|PATCH|DELETE) \/api\/v1\/views(\/at|\/1)?$/,
    /^POST \/api\/v1\/analytics\/fund-metrics$/,
  ];
  // Not called: they would end or change the session the loop runs with.
  const ownSession = ['POST /api/v1/auth/logout', 'POST /api/v1/auth/change-password'];

  it('gets 403 naming a permission on every other route of the API', async () => {
    const user = await invitedUser(accounts, (await createRole([])).id);
    const document = (await admin.get<{ paths: Record<string, Record<string, unknown>> }>('/api/openapi.json')).body;
    const routes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '1')}`),
    );
    const open = ['login', 'register', 'forgot-password', 'reset-password', 'accept-invitation'];
    const refusedWithout: string[] = [];
    for (const route of routes) {
      const [method, path] = route.split(' ') as [string, string];
      if (!path.startsWith('/api/v1/') || open.some((name) => path === `/api/v1/auth/${name}`)) continue;
      if (ownSession.includes(route)) continue;
      const answer = await user.api.send(method, path, ['POST', 'PATCH'].includes(method) ? { body: {} } : {});
      if (allowed.some((pattern) => pattern.test(route))) {
        expect(answer.status, `${route}: ${JSON.stringify(answer.body)}`).not.toBe(403);
        continue;
      }
      expect(answer.status, `${route}: ${JSON.stringify(answer.body)}`).toBe(403);
      expect(errorOf(answer).message).toMatch(/needs [a-zA-Z]+:[a-zA-Z]+/);
      refusedWithout.push(route);
    }
    expect(refusedWithout).toContain('POST /api/v1/roles');
    expect(refusedWithout).toContain('GET /api/v1/audit-events');
    expect(refusedWithout.length).toBeGreaterThan(80);
  });
});

describe('a role without investors:read', () => {
  let user: TestUser;
  let deal: Row;
  let investor: Row;
  let dealNote: Row;
  let investorNote: Row;
  let dealFile: Row;
  let investorFile: Row;
  const secret = 'confidential-investor-remark';

  beforeAll(async () => {
    const role = await createRole(dataPermissions.filter((p) => !p.startsWith('investors:')));
    user = await invitedUser(accounts, role.id);
    deal = await make.deal();
    investor = await make.investor();
    await make.link('dealInvestors', { dealId: deal.id, investorId: investor.id });
    dealNote = await make.note('deals', deal.id, 'A note on the deal');
    investorNote = await make.note('investors', investor.id, `A ${secret}`);
    dealFile = (await upload(admin, 'deals', deal.id, 'deal.txt')).body;
    investorFile = (await upload(admin, 'investors', investor.id, `${secret}.txt`)).body;
  });

  it('gets 403 on every investors route', async () => {
    const { api } = user;
    expectForbidden(await api.list('/api/v1/investors'), 'investors:read');
    expectForbidden(await api.query('/api/v1/investors', {}), 'investors:read');
    expectForbidden(await api.get(`/api/v1/investors/${investor.id}`), 'investors:read');
    expectForbidden(await api.list('/api/v1/dealInvestors'), 'investors:read');
    expectForbidden(await api.list(`/api/v1/deals/${deal.id}/investors`), 'investors:read');
  });

  it('gets 403 when joining investors from deals, and deals otherwise', async () => {
    const { api } = user;
    expectForbidden(await api.list('/api/v1/deals', { join: 'investors(name)' }), 'investors:read');
    expectForbidden(await api.get(`/api/v1/deals/${deal.id}`, { join: 'investors(name)' }), 'investors:read');
    expectForbidden(await api.query('/api/v1/deals', { join: ['investors(name)'] }), 'investors:read');
    const deals = await api.list('/api/v1/deals', { 'filter[id]': deal.id });
    expect(deals.body.data.map((d) => d.id)).toEqual([deal.id]);
  });

  it('does not see notes or files attached to investors, in lists, searches or by id', async () => {
    const { api } = user;
    const notes = await api.list('/api/v1/notes', { pageSize: 1000, count: 'exact' });
    expect(notes.status).toBe(200);
    const noteIds = notes.body.data.map((n) => n.id);
    expect(noteIds).toContain(dealNote.id);
    expect(noteIds).not.toContain(investorNote.id);
    expect(notes.body.total).toBe(notes.body.data.length);
    expect((await api.list('/api/v1/notes', { q: secret, count: 'exact' })).body).toMatchObject({ data: [], total: 0 });
    expect((await api.list('/api/v1/notes', { 'filter[entity]': 'investors' })).body.data).toEqual([]);
    expect(
      (await api.query('/api/v1/notes', { where: { field: 'recordId', op: 'eq', value: investor.id } })).body.data,
    ).toEqual([]);
    expect((await api.get(`/api/v1/notes/${investorNote.id}`)).status).toBe(404);

    const files = await api.list('/api/v1/files', { pageSize: 1000 });
    const fileIds = files.body.data.map((f) => f.id);
    expect(fileIds).toContain(dealFile.id);
    expect(fileIds).not.toContain(investorFile.id);
    expect((await api.list('/api/v1/files', { q: secret })).body.data).toEqual([]);
    expect((await api.get(`/api/v1/files/${investorFile.id}`)).status).toBe(404);
    expect((await api.send('GET', `/api/v1/files/${investorFile.id}/content`)).status).toBe(404);
    expect((await api.send('GET', `/api/v1/files/${dealFile.id}/content`)).body).toBe('bytes of deal.txt');
  });

  it('can neither attach to investors nor change or delete what is attached to them', async () => {
    const { api } = user;
    expectForbidden(
      await api.post('/api/v1/notes', { entity: 'investors', recordId: investor.id, body: 'x' }),
      'investors:read',
    );
    expectForbidden(await upload(api, 'investors', investor.id, 'more.txt'), 'investors:read');
    expect((await api.patch(`/api/v1/notes/${investorNote.id}`, { body: 'overwritten' }, 1)).status).toBe(404);
    expect((await api.patch(`/api/v1/files/${investorFile.id}`, { name: 'renamed.txt' }, 1)).status).toBe(404);
    expect((await api.delete(`/api/v1/notes/${investorNote.id}`)).status).toBe(404);
    expect((await api.delete(`/api/v1/files/${investorFile.id}`)).status).toBe(404);
    expect((await admin.get(`/api/v1/notes/${investorNote.id}`)).body).toMatchObject({
      body: `A ${secret}`,
      version: 1,
    });
    expect((await admin.get(`/api/v1/files/${investorFile.id}`)).body).toMatchObject({ name: `${secret}.txt` });
    // What it can read, it can change.
    expect((await api.patch(`/api/v1/notes/${dealNote.id}`, { body: 'edited' }, 1)).status).toBe(200);
  });
});

describe('mail without SMTP_URL', () => {
  it('is kept in the outbox, listed to administrators only', async () => {
    const email = `outbox-${Date.now()}@test.example`;
    expect((await admin.post('/api/v1/users/invitations', { email, roleId: roleIds.Viewer })).status).toBe(201);
    const listed = await admin.list('/api/v1/outbox', { 'filter[to]': email });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({
      to: email,
      subject: 'You are invited to Data Platform',
      text: expect.stringContaining(`${PUBLIC_URL}/register?token=`),
      createdAt: expect.any(String),
    });
    const one = await admin.get(`/api/v1/outbox/${listed.body.data[0]?.id}`);
    expect(one.body).toMatchObject({ to: email });

    const viewer = await invitedUser(accounts, roleIds.Viewer as number);
    expectForbidden(await viewer.api.list('/api/v1/outbox'), 'users:manage');
    expectForbidden(await viewer.api.get(`/api/v1/outbox/${listed.body.data[0]?.id}`), 'users:manage');
    expectForbidden(await viewer.api.query('/api/v1/outbox', {}), 'users:manage');
  });
});
