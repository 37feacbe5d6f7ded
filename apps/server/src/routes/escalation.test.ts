import { allPermissions, type Permission } from '@data-platform/shared/permissions';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../config.ts';
import { bootstrapAccounts } from '../domain/bootstrap.ts';
import { type AccountServer, invitedUser, roleIdOf, type TestUser, uniqueEmail } from '../testing/accounts.ts';
import {
  type Answer,
  type ApiClient,
  adminClient,
  apiClient,
  errorOf,
  factories,
  type Row,
  unique,
} from '../testing/factories.ts';
import { importFile } from '../testing/imports.ts';
import { outboxMailbox } from '../testing/mail.ts';
import { startTestServer, TEST_ADMIN_EMAIL, type TestServer } from '../testing/test-server.ts';

/**
 * Nobody rises above their rights through the administration screens: a
 * role manager cannot widen a role (their own included) or touch a wider one,
 * a user manager cannot act on, or read the sign-in links of, anyone who
 * holds more than they do, and users without `users:read` see colleagues by
 * name only, on every path. Mail goes to the outbox (no SMTP_URL).
 */

const PUBLIC_URL = 'https://data.example.test';
let server: TestServer;
let admin: ApiClient;
let accounts: AccountServer;
let administratorRoleId: number;

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL });
  admin = adminClient(server);
  accounts = { url: server.url, publicUrl: PUBLIC_URL, admin, mailbox: outboxMailbox(admin) };
  administratorRoleId = await roleIdOf(admin, 'Administrator');
});

afterAll(async () => server?.close());

async function createRole(permissions: readonly Permission[]): Promise<Row> {
  const answer = await admin.post('/api/v1/roles', { name: unique('Role'), permissions });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

function expectBeyondRights(answer: Answer<unknown>) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(403);
  expect(errorOf(answer).code).toBe('forbidden');
}

async function userWith(permissions: readonly Permission[]): Promise<TestUser> {
  return invitedUser(accounts, Number((await createRole(permissions)).id));
}

describe('a role manager', () => {
  const held: Permission[] = ['roles:manage', 'companies:read', 'companies:update'];
  let manager: TestUser;
  let ownRoleId: number;
  beforeAll(async () => {
    const role = await createRole(held);
    ownRoleId = Number(role.id);
    manager = await invitedUser(accounts, ownRoleId);
  });

  it('cannot grant its own role every permission, nor one it does not hold', async () => {
    const own = await admin.get(`/api/v1/roles/${ownRoleId}`);
    for (const permissions of [allPermissions, [...held, 'companies:delete'], [...held, 'users:read']]) {
      expectBeyondRights(
        await manager.api.patch(`/api/v1/roles/${ownRoleId}`, { permissions }, Number(own.body.version)),
      );
    }
    expect((await admin.get(`/api/v1/roles/${ownRoleId}`)).body.permissions).toEqual(held);
    // Narrowing itself is within its rights.
    const narrowed = await manager.api.patch(
      `/api/v1/roles/${ownRoleId}`,
      { permissions: ['roles:manage', 'companies:read', 'companies:update'] },
      Number(own.body.version),
    );
    expect(narrowed.status, JSON.stringify(narrowed.body)).toBe(200);
  });

  it('creates roles only within its rights', async () => {
    expectBeyondRights(await manager.api.post('/api/v1/roles', { name: unique('Wide'), permissions: allPermissions }));
    expectBeyondRights(
      await manager.api.post('/api/v1/roles', { name: unique('Wide'), permissions: ['companies:read', 'deals:read'] }),
    );
    const made = await manager.api.post('/api/v1/roles', { name: unique('Narrow'), permissions: ['companies:read'] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
  });

  it('cannot edit or delete a role that holds more than it does, even to narrow it', async () => {
    const wider = await createRole(['companies:read', 'deals:read']);
    expectBeyondRights(
      await manager.api.patch(`/api/v1/roles/${wider.id}`, { permissions: ['companies:read'] }, Number(wider.version)),
    );
    expectBeyondRights(
      await manager.api.patch(`/api/v1/roles/${wider.id}`, { name: unique('Renamed') }, Number(wider.version)),
    );
    expectBeyondRights(await manager.api.delete(`/api/v1/roles/${wider.id}`));
    expect((await admin.get(`/api/v1/roles/${wider.id}`)).body).toMatchObject({
      name: wider.name,
      permissions: ['companies:read', 'deals:read'],
    });
  });

  it('edits and deletes roles at or below its rights', async () => {
    const narrower = await createRole(['companies:read']);
    const edited = await manager.api.patch(
      `/api/v1/roles/${narrower.id}`,
      { permissions: ['companies:read', 'companies:update'] },
      Number(narrower.version),
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await manager.api.delete(`/api/v1/roles/${narrower.id}`)).status).toBe(204);
  });

  it('cannot make a role that manages users without seeing them', async () => {
    const answer = await admin.post('/api/v1/roles', { name: unique('Blind'), permissions: ['users:manage'] });
    expect(answer.status).toBe(400);
    expect(errorOf(answer).fields?.permissions).toMatch(/users:read/);
  });
});

describe('a user manager', () => {
  const held: Permission[] = ['users:read', 'users:manage', 'companies:read'];
  let manager: TestUser;
  let peerRoleId: number;
  beforeAll(async () => {
    manager = await userWith(held);
    peerRoleId = Number((await createRole(['companies:read'])).id);
  });

  const current = async (id: number) => (await admin.get(`/api/v1/users/${id}`)).body;

  it('cannot disable, demote, rename or delete an administrator', async () => {
    const target = await invitedUser(accounts, administratorRoleId);
    const { version } = await current(target.id);
    expectBeyondRights(await manager.api.patch(`/api/v1/users/${target.id}`, { status: 'disabled' }, Number(version)));
    expectBeyondRights(await manager.api.patch(`/api/v1/users/${target.id}`, { roleId: peerRoleId }, Number(version)));
    expectBeyondRights(
      await manager.api.patch(`/api/v1/users/${target.id}`, { firstName: 'Mallory' }, Number(version)),
    );
    expectBeyondRights(await manager.api.delete(`/api/v1/users/${target.id}`));
    expect(await current(target.id)).toMatchObject({ status: 'active', roleId: administratorRoleId, version });
    expect((await target.api.get('/api/v1/auth/me')).status).toBe(200);
  });

  it('cannot resend an invitation meant for an administrator', async () => {
    const email = uniqueEmail('invited-admin');
    const invited = await admin.post('/api/v1/users/invitations', { email, roleId: administratorRoleId });
    expect(invited.status).toBe(201);
    expectBeyondRights(await manager.api.post(`/api/v1/users/${invited.body.id}/resend-invitation`, undefined));
  });

  it('cannot read an administrator’s reset or invitation link in the outbox, however it asks', async () => {
    const target = await invitedUser(accounts, administratorRoleId);
    const reset = await apiClient(server.url).post('/api/v1/auth/forgot-password', { email: target.email });
    expect(reset.status).toBe(202);
    const mail = await accounts.mailbox.next(target.email);
    expect(mail.text).toContain(`${PUBLIC_URL}/reset-password?token=`);
    const kept = await admin.list('/api/v1/outbox', { 'filter[to]': target.email, sort: '-createdAt' });
    const mailId = kept.body.data[0]?.id as number;

    const listed = await manager.api.list('/api/v1/outbox', { pageSize: 100, count: 'exact' });
    expect(listed.status).toBe(200);
    expect(listed.body.total).toBe(0);
    expect(JSON.stringify(listed.body)).not.toContain('token=');
    expect(
      (await manager.api.list('/api/v1/outbox', { 'filter[to]': target.email, count: 'estimated' })).body.total,
    ).toBe(0);
    expect(
      (
        await manager.api.query('/api/v1/outbox', {
          where: { field: 'to', op: 'eq', value: target.email },
          count: 'exact',
        })
      ).body.total,
    ).toBe(0);
    expect((await manager.api.get(`/api/v1/outbox/${mailId}`)).status).toBe(404);
    expect((await manager.api.get(`/api/v1/outbox/${mailId}`, { select: 'text' })).status).toBe(404);
    // Not even mail for users below: the outbox is for administrators.
    const lower = await invitedUser(accounts, peerRoleId);
    await apiClient(server.url).post('/api/v1/auth/forgot-password', { email: lower.email });
    await accounts.mailbox.next(lower.email);
    expect(
      (await manager.api.list('/api/v1/outbox', { 'filter[to]': lower.email, count: 'estimated' })).body.total,
    ).toBe(0);
  });

  it('acts on users whose role holds no more than its own', async () => {
    const peer = await invitedUser(accounts, peerRoleId);
    const { version } = await current(peer.id);
    const disabled = await manager.api.patch(`/api/v1/users/${peer.id}`, { status: 'disabled' }, Number(version));
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    expect((await peer.api.get('/api/v1/auth/me')).status).toBe(401);
    const email = uniqueEmail('invited-peer');
    const invited = await manager.api.post('/api/v1/users/invitations', { email, roleId: peerRoleId });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    expect((await manager.api.post(`/api/v1/users/${invited.body.id}/resend-invitation`, undefined)).status).toBe(200);
    expect((await manager.api.delete(`/api/v1/users/${peer.id}`)).status).toBe(204);
  });
});

describe('a user without users:read', () => {
  let viewer: TestUser;
  let make: ReturnType<typeof factories>;
  let invitedId: number;
  beforeAll(async () => {
    viewer = await invitedUser(accounts, await roleIdOf(admin, 'Viewer'));
    make = factories(admin);
    // An invited user's name is still their email: such users are not listed to viewer.
    const invited = await admin.post('/api/v1/users/invitations', {
      email: uniqueEmail('not-yet'),
      roleId: await roleIdOf(admin, 'Viewer'),
    });
    invitedId = invited.body.id;
  });

  const noEmail = (answer: Answer<unknown>) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(JSON.stringify(answer.body)).not.toContain('@');
  };

  it('lists and gets colleagues by name only', async () => {
    const listed = await viewer.api.list('/api/v1/users', { pageSize: 100 });
    noEmail(listed);
    expect(listed.body.data.length).toBeGreaterThan(1);
    for (const row of listed.body.data) {
      expect(Object.keys(row)).not.toEqual(expect.arrayContaining(['email']));
      expect(row).not.toHaveProperty('status');
      expect(row).not.toHaveProperty('lastSignInAt');
      expect(row).not.toHaveProperty('roleId');
      expect(typeof row.fullName).toBe('string');
    }
    expect(listed.body.data.some((row) => row.id === invitedId)).toBe(false);
    noEmail(await viewer.api.get(`/api/v1/users/${viewer.id}`));
    expect((await viewer.api.get(`/api/v1/users/${invitedId}`)).status).toBe(404);
    noEmail(await viewer.api.query('/api/v1/users', {}));
    // The administrator, who holds users:read, sees accounts.
    expect(JSON.stringify((await admin.list('/api/v1/users', { pageSize: 100 })).body)).toContain(TEST_ADMIN_EMAIL);
  });

  it('cannot select, filter, sort or search by what it may not see', async () => {
    for (const query of [
      { select: 'fullName,email' },
      { 'filter[email][startsWith]': 'admin' },
      { 'filter[status]': 'active' },
      { sort: 'lastSignInAt' },
    ]) {
      expect((await viewer.api.list('/api/v1/users', query)).status, JSON.stringify(query)).toBe(400);
    }
    expect((await viewer.api.get(`/api/v1/users/${viewer.id}`, { select: 'email' })).status).toBe(400);
    const where = { where: { field: 'email', op: 'startsWith', value: 'admin' } };
    expect((await viewer.api.query('/api/v1/users', where)).status).toBe(400);
    // Search looks at names only.
    expect((await viewer.api.list('/api/v1/users', { q: 'test.example', count: 'exact' })).body.total).toBe(0);
  });

  it('sees no email through joins or export', async () => {
    const company = await make.company();
    expectForbiddenJoin(await viewer.api.get(`/api/v1/companies/${company.id}`, { join: 'createdBy(email)' }));
    expectForbiddenJoin(await viewer.api.list('/api/v1/companies', { join: 'createdBy(fullName,status)' }));
    const joined = await viewer.api.get(`/api/v1/companies/${company.id}`, { join: 'createdBy,updatedBy(fullName)' });
    noEmail(joined);
    expect(joined.body.createdBy).toMatchObject({ fullName: expect.any(String) });
    // An owner who is still only invited goes by their email: not named to this reader.
    const owned = await make.company({ ownerId: invitedId });
    expect((await admin.get(`/api/v1/companies/${owned.id}`, { join: 'owner' })).body.owner).toMatchObject({
      fullName: expect.stringContaining('@'),
    });
    const ownedAsViewer = await viewer.api.get(`/api/v1/companies/${owned.id}`, { join: 'owner' });
    noEmail(ownedAsViewer);
    expect(ownedAsViewer.body.owner).toBeNull();
    noEmail(await viewer.api.list('/api/v1/companies', { 'filter[id]': owned.id, join: 'owner,createdBy' }));
    const exported = await viewer.api.send<string>('GET', '/api/v1/companies/export?select=name,createdById,ownerId');
    expect(exported.status).toBe(200);
    expect(exported.body).toContain(String(company.name));
    expect(exported.body).toContain(String(owned.name));
    expect(exported.body).not.toContain('@');
  });

  it('cannot learn through an import which invited emails exist', async () => {
    const importer = await userWith(['companies:read', 'companies:create', 'companies:import']);
    const invitedEmail = String((await admin.get(`/api/v1/users/${invitedId}`)).body.fullName);
    expect(invitedEmail).toContain('@');
    const ownedBy = (owner: string) => `Name,Owner\n${unique('Imported')},${owner}\n`;
    const invited = await importFile(server, 'companies', 'a.csv', ownedBy(invitedEmail), importer.token);
    const madeUp = await importFile(server, 'companies', 'a.csv', ownedBy(uniqueEmail('nobody')), importer.token);
    expect(invited.status, JSON.stringify(invited.body)).toBe(400);
    expect(madeUp.status).toBe(400);
    const nobody = madeUp.body.error?.fields?.['2.ownerId'] ?? '';
    expect(invited.body.error?.fields?.['2.ownerId']).toBe(nobody.replace(/nobody\S*@test\.example/, invitedEmail));
    // The administrator's import finds the invited owner by the same name.
    expect((await importFile(server, 'companies', 'a.csv', ownedBy(invitedEmail))).status).toBe(201);
  });
});

function expectForbiddenJoin(answer: Answer<unknown>) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(403);
  expect(errorOf(answer).message).toContain('users:read');
}

describe('an existing database', () => {
  it('gives the Administrator role the permissions a later version adds, at start', async () => {
    await server.database.rows(
      sql`update roles set permissions = array_remove(permissions, 'users:read') where name = 'Administrator'`,
    );
    await bootstrapAccounts(server.database, configFromEnv({ LOG_LEVEL: 'silent' }));
    // Role rows changed beside the API: later requests see them once their notification is heard.
    await server.database.caughtUp();
    const [role] = await server.database.rows<{ permissions: string[] }>(
      sql`select permissions from roles where name = 'Administrator'`,
    );
    expect(new Set(role?.permissions)).toEqual(new Set(allPermissions));
  });
});
