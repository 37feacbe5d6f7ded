import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccountServer,
  invitedUser,
  roleIdOf,
  signIn,
  strongPassword,
  type TestUser,
  uniqueEmail,
} from '../testing/accounts.ts';
import {
  type Answer,
  type ApiClient,
  adminClient,
  apiClient,
  errorOf,
  factories,
  type Row,
} from '../testing/factories.ts';
import { type MailCatcher, startMailCatcher, tokenOfLink } from '../testing/mail.ts';
import { startTestServer, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/test-server.ts';

/**
 * Invitations and access requests through a real SMTP server, the users
 * API, the last administrator, deleted users, and the audit trail, over HTTP.
 */

const PUBLIC_URL = 'https://data.example.test';
let server: TestServer;
let catcher: MailCatcher;
let admin: ApiClient;
let accounts: AccountServer;
let adminId: number;
const roleIds: Record<'Administrator' | 'Editor' | 'Viewer', number> = { Administrator: 0, Editor: 0, Viewer: 0 };

beforeAll(async () => {
  catcher = await startMailCatcher();
  server = await startTestServer({ SMTP_URL: catcher.url, PUBLIC_URL });
  admin = adminClient(server);
  accounts = { url: server.url, publicUrl: PUBLIC_URL, admin, mailbox: catcher };
  for (const name of ['Administrator', 'Editor', 'Viewer'] as const) roleIds[name] = await roleIdOf(admin, name);
  adminId = (await admin.get('/api/v1/auth/me')).body.id;
});

afterAll(async () => {
  await server?.close();
  await catcher?.close();
});

const anonymous = () => apiClient(server.url);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const acceptInvitation = (token: string, password = strongPassword()) =>
  anonymous().post<{ accessToken: string; user: Row }>('/api/v1/auth/accept-invitation', {
    token,
    firstName: 'Grace',
    lastName: 'Hopper',
    password,
  });
const register = (email: string, password: string) =>
  anonymous().post('/api/v1/auth/register', { email, firstName: 'Alan', lastName: 'Turing', password });

function expectGenericSignInRefusal(answer: Answer<unknown>) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(401);
  expect(errorOf(answer).code).toBe('invalid_credentials');
}

async function userRow(id: number): Promise<Row> {
  const answer = await admin.get(`/api/v1/users/${id}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

describe('invitations', () => {
  it('invite → mail → accept signs in with the role; the link works once', async () => {
    const email = uniqueEmail('invited');
    const invited = await admin.post('/api/v1/users/invitations', {
      email: email.toUpperCase(),
      roleId: roleIds.Editor,
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    expect(invited.body).toMatchObject({ email, status: 'invited', roleId: roleIds.Editor, createdById: adminId });

    const mail = await catcher.next(email);
    expect(mail.subject).toBe('You are invited to Data Platform');
    expect(mail.text).toContain('Admin invited you to Data Platform with the role Editor');
    const token = tokenOfLink(mail, `${PUBLIC_URL}/register`);
    // Not signed in before accepting: no password yet.
    expectGenericSignInRefusal(await signIn(server.url, email, 'any password at all'));

    const password = strongPassword();
    // A refused password does not spend the link.
    const common = await acceptInvitation(token, 'qwerty1234567');
    expect(common.status).toBe(400);
    expect(errorOf(common).fields?.password).toMatch(/too common/i);
    const accepted = await acceptInvitation(token, password);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.user).toMatchObject({
      id: invited.body.id,
      status: 'active',
      firstName: 'Grace',
      fullName: 'Grace Hopper',
      role: { name: 'Editor' },
    });
    const me = await apiClient(server.url, { authorization: `Bearer ${accepted.body.accessToken}` }).get(
      '/api/v1/auth/me',
    );
    expect(me.body).toMatchObject({ id: invited.body.id, role: { name: 'Editor' } });

    const twice = await acceptInvitation(token);
    expect(twice.status).toBe(400);
    expect(errorOf(twice).fields?.token).toMatch(/not valid/i);
    expect((await signIn(server.url, email, password)).status).toBe(200);
    // With SMTP_URL, mail goes out and nothing is kept in the outbox.
    expect((await admin.list('/api/v1/outbox', { count: 'exact' })).body.total).toBe(0);
  });

  it('resending mails a new link and the old one stops working', async () => {
    const email = uniqueEmail('resent');
    const invited = await admin.post('/api/v1/users/invitations', { email, roleId: roleIds.Viewer });
    const first = tokenOfLink(await catcher.next(email), `${PUBLIC_URL}/register`);
    const resent = await admin.post(`/api/v1/users/${invited.body.id}/resend-invitation`, undefined);
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    const second = tokenOfLink(await catcher.next(email), `${PUBLIC_URL}/register`);
    expect(second).not.toBe(first);

    expect((await acceptInvitation(first)).status).toBe(400);
    expect((await acceptInvitation(second)).status).toBe(200);
    const again = await admin.post(`/api/v1/users/${invited.body.id}/resend-invitation`, undefined);
    expect(again.status).toBe(409);
    expect(errorOf(again).code).toBe('not_invited');
  });

  it('a link is valid for seven days', async () => {
    const email = uniqueEmail('late');
    await admin.post('/api/v1/users/invitations', { email, roleId: roleIds.Viewer });
    const token = tokenOfLink(await catcher.next(email), `${PUBLIC_URL}/register`);
    const [issued] = await server.database.rows<{ days: number }>(
      sql`select extract(epoch from expires_at - created_at) / 86400 as days from user_tokens where token_hash = ${sha256(token)}`,
    );
    expect(Number(issued?.days)).toBeCloseTo(7, 2);
    await server.database.rows(
      sql`update user_tokens set expires_at = now() - interval '1 second' where token_hash = ${sha256(token)}`,
    );
    const late = await acceptInvitation(token);
    expect(late.status).toBe(400);
    expect(errorOf(late).fields).toHaveProperty('token');
  });

  it('refuses an email that is already used and a role that does not exist', async () => {
    const taken = await admin.post('/api/v1/users/invitations', { email: TEST_ADMIN_EMAIL, roleId: roleIds.Viewer });
    expect(taken.status).toBe(409);
    expect(errorOf(taken).fields).toHaveProperty('email');
    const noRole = await admin.post('/api/v1/users/invitations', { email: uniqueEmail(), roleId: 999_999 });
    expect(noRole.status).toBe(400);
    expect(errorOf(noRole).fields).toHaveProperty('roleId');
  });
});

describe('access requests', () => {
  it('register → pending → approve → mail → sign in', async () => {
    const email = uniqueEmail('applicant');
    const password = strongPassword();
    const asked = await register(email, password);
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);

    const pending = await admin.list('/api/v1/users', { 'filter[email]': email, 'filter[status]': 'pending' });
    expect(pending.body.data).toHaveLength(1);
    const id = (pending.body.data[0] as Row).id;
    const early = await signIn(server.url, email, password);
    expect(early.status).toBe(403);
    expect(errorOf(early)).toMatchObject({ code: 'account_pending', message: expect.stringMatching(/waiting/) });
    expectGenericSignInRefusal(await signIn(server.url, email, 'not the password'));

    const approved = await admin.post(`/api/v1/users/${id}/approve`, { roleId: roleIds.Viewer });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ status: 'active', roleId: roleIds.Viewer });
    const mail = await catcher.next(email);
    expect(mail.subject).toBe('Your access to Data Platform is approved');
    expect(mail.text).toContain('Hello Alan Turing');
    expect(mail.text).toContain(`${PUBLIC_URL}/`);

    const signedIn = await signIn(server.url, email, password);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ id, role: { name: 'Viewer' } });
    const twice = await admin.post(`/api/v1/users/${id}/approve`, { roleId: roleIds.Viewer });
    expect(twice.status).toBe(409);
  });

  it('register → reject → mail → told why only with the right password', async () => {
    const email = uniqueEmail('declined');
    const password = strongPassword();
    expect((await register(email, password)).status).toBe(202);
    const [row] = (await admin.list('/api/v1/users', { 'filter[email]': email })).body.data as Row[];

    const rejected = await admin.send('POST', `/api/v1/users/${row?.id}/reject`);
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'rejected' });
    const mail = await catcher.next(email);
    expect(mail.subject).toBe('Your request for access to Data Platform');
    expect(mail.text).toContain('declined your request');

    const told = await signIn(server.url, email, password);
    expect(told.status).toBe(403);
    expect(errorOf(told)).toMatchObject({ code: 'account_rejected', message: expect.stringMatching(/declined/) });
    const wrong = await signIn(server.url, email, 'not the password');
    const unknown = await signIn(server.url, uniqueEmail('nobody'), 'not the password');
    expectGenericSignInRefusal(wrong);
    expect(wrong.body).toEqual(unknown.body);
    expect((await admin.post(`/api/v1/users/${row?.id}/approve`, { roleId: roleIds.Viewer })).status).toBe(409);
  });

  // That it takes as long (a password hashing either way) is timed by `npm run bench:register`.
  it('answers a request for an email in use the same, and changes nothing', async () => {
    const fresh = await register(uniqueEmail('fresh'), strongPassword());
    const taken = await register(TEST_ADMIN_EMAIL, strongPassword());
    expect(taken.status).toBe(fresh.status);
    expect(taken.body).toEqual(fresh.body);
    expect((await signIn(server.url, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD)).status).toBe(200);
    const me = await admin.get('/api/v1/auth/me');
    expect(me.body).toMatchObject({ status: 'active', role: { name: 'Administrator' } });
  });
});

describe('users API', () => {
  it('lists users with the generic list parameters', async () => {
    const answer = await admin.list('/api/v1/users', {
      'filter[status]': 'active',
      'filter[roleId]': roleIds.Administrator,
      select: 'email,status',
      join: 'role(name)',
      sort: 'email',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toContainEqual({
      id: adminId,
      email: TEST_ADMIN_EMAIL,
      status: 'active',
      role: { id: roleIds.Administrator, name: 'Administrator' },
    });
    expect(answer.body.data.every((u) => u.status === 'active')).toBe(true);
  });

  it('edits name, role and status with If-Match', async () => {
    const user = await invitedUser(accounts, roleIds.Viewer);
    const { version } = await userRow(user.id);

    const missing = await admin.patch(`/api/v1/users/${user.id}`, { firstName: 'Ada' });
    expect(missing.status).toBe(428);
    const stale = await admin.patch(`/api/v1/users/${user.id}`, { firstName: 'Ada' }, Number(version) + 5);
    expect(stale.status).toBe(412);
    const renamed = await admin.patch(
      `/api/v1/users/${user.id}`,
      { firstName: 'Ada', lastName: 'Lovelace', roleId: roleIds.Editor },
      Number(version),
    );
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toMatchObject({
      fullName: 'Ada Lovelace',
      roleId: roleIds.Editor,
      version: Number(version) + 1,
    });
    expect(renamed.headers.get('etag')).toBe(`"${Number(version) + 1}"`);
    // The role applies at the next request of the same session.
    expect((await user.api.get('/api/v1/auth/me')).body).toMatchObject({ role: { name: 'Editor' } });

    const notAStatus = await admin.patch(`/api/v1/users/${user.id}`, { status: 'deleted' }, Number(version) + 1);
    expect(notAStatus.status).toBe(400);
    const noRole = await admin.patch(`/api/v1/users/${user.id}`, { roleId: 999_999 }, Number(version) + 1);
    expect(noRole.status).toBe(400);
  });

  it('disabling a user ends their sessions; they are told why only with the right password', async () => {
    const user = await invitedUser(accounts, roleIds.Editor);
    const other = await signIn(server.url, user.email, user.password);
    const { version } = await userRow(user.id);
    const disabled = await admin.patch(`/api/v1/users/${user.id}`, { status: 'disabled' }, Number(version));
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    expect((await user.api.get('/api/v1/auth/me')).status).toBe(401);
    expect(
      (await apiClient(server.url, { authorization: `Bearer ${other.body.accessToken}` }).get('/api/v1/auth/me'))
        .status,
    ).toBe(401);

    const told = await signIn(server.url, user.email, user.password);
    expect(told.status).toBe(403);
    expect(errorOf(told).code).toBe('account_disabled');
    expectGenericSignInRefusal(await signIn(server.url, user.email, 'not the password'));

    const enabled = await admin.patch(`/api/v1/users/${user.id}`, { status: 'active' }, Number(version) + 1);
    expect(enabled.status).toBe(200);
    // Enabling does not bring old sessions back.
    expect((await user.api.get('/api/v1/auth/me')).status).toBe(401);
    expect((await signIn(server.url, user.email, user.password)).status).toBe(200);
  });

  it('keeps the last active administrator: no demotion, disabling or deletion (409)', async () => {
    const { version } = await userRow(adminId);
    const expectLast = (answer: Answer<unknown>) => {
      expect(answer.status, JSON.stringify(answer.body)).toBe(409);
      expect(errorOf(answer).code).toBe('last_administrator');
    };
    expectLast(await admin.patch(`/api/v1/users/${adminId}`, { roleId: roleIds.Viewer }, Number(version)));
    expectLast(await admin.patch(`/api/v1/users/${adminId}`, { status: 'disabled' }, Number(version)));
    expect((await admin.get('/api/v1/auth/me')).body).toMatchObject({
      status: 'active',
      role: { name: 'Administrator' },
    });

    // With a second administrator, one of the two may step down; then the other is the last again.
    const second = await invitedUser(accounts, roleIds.Administrator);
    const secondVersion = Number((await userRow(second.id)).version);
    const stepDown = await second.api.patch(`/api/v1/users/${second.id}`, { roleId: roleIds.Editor }, secondVersion);
    expect(stepDown.status, JSON.stringify(stepDown.body)).toBe(200);
    expectLast(await admin.patch(`/api/v1/users/${adminId}`, { status: 'disabled' }, Number(version)));

    // A disabled administrator is not an active one.
    const third = await invitedUser(accounts, roleIds.Administrator);
    const thirdVersion = Number((await userRow(third.id)).version);
    expect((await admin.patch(`/api/v1/users/${third.id}`, { status: 'disabled' }, thirdVersion)).status).toBe(200);
    expectLast(await admin.patch(`/api/v1/users/${adminId}`, { status: 'disabled' }, Number(version)));
  });

  it('nobody deletes their own account (409 self_delete), administrator or not', async () => {
    const own = await admin.delete(`/api/v1/users/${adminId}`);
    expect(own.status, JSON.stringify(own.body)).toBe(409);
    expect(errorOf(own)).toMatchObject({ code: 'self_delete', message: 'You cannot delete your own account' });
    // A second administrator is no reason to allow it.
    const other = await invitedUser(accounts, roleIds.Administrator);
    const theirs = await other.api.delete(`/api/v1/users/${other.id}`);
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(409);
    expect(errorOf(theirs).code).toBe('self_delete');
    expect((await other.api.get('/api/v1/auth/me')).body).toMatchObject({ id: other.id, status: 'active' });
    expect((await admin.get('/api/v1/auth/me')).body).toMatchObject({ status: 'active' });
    // Another's account, even an administrator's, can be deleted (and the later tests count administrators).
    expect((await admin.delete(`/api/v1/users/${other.id}`)).status).toBe(204);
  });

  it('deleting a user keeps the row as "Deleted user", so their records still name someone', async () => {
    const user = await invitedUser(accounts, roleIds.Editor);
    const company = await factories(user.api).company();
    expect(company.createdById).toBe(user.id);

    expect((await admin.delete(`/api/v1/users/${user.id}`)).status).toBe(204);
    expect((await user.api.get('/api/v1/auth/me')).status).toBe(401);
    expectGenericSignInRefusal(await signIn(server.url, user.email, user.password));

    const kept = await admin.get(`/api/v1/companies/${company.id}`, { join: 'createdBy(fullName,status)' });
    expect(kept.body).toMatchObject({
      createdById: user.id,
      createdBy: { id: user.id, fullName: 'Deleted user', status: 'deleted' },
    });
    const row = await userRow(user.id);
    expect(row).toMatchObject({ status: 'deleted', fullName: 'Deleted user', roleId: null });
    expect(row.email).not.toBe(user.email);
    const [credentials] = await server.database.rows<{ n: number }>(
      sql`select count(*)::int as n from user_credentials where user_id = ${user.id}`,
    );
    expect(Number(credentials?.n)).toBe(0);

    expect((await admin.delete(`/api/v1/users/${user.id}`)).status).toBe(404);
    expect((await admin.patch(`/api/v1/users/${user.id}`, { firstName: 'Back' }, Number(row.version))).status).toBe(
      404,
    );
    // The address is free for a new invitation.
    const again = await admin.post('/api/v1/users/invitations', { email: user.email, roleId: roleIds.Viewer });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(user.id);
    await catcher.next(user.email);
  });
});

describe('audit events', () => {
  let subject: TestUser;
  let viewer: TestUser;

  beforeAll(async () => {
    viewer = await invitedUser(accounts, roleIds.Viewer);
    subject = await invitedUser(accounts, roleIds.Viewer);
    await signIn(server.url, subject.email, 'a wrong password');
    const session = await signIn(server.url, subject.email, subject.password);
    await apiClient(server.url, { authorization: `Bearer ${session.body.accessToken}` }).post(
      '/api/v1/auth/logout',
      undefined,
    );
    const { version } = await userRow(subject.id);
    await admin.patch(`/api/v1/users/${subject.id}`, { roleId: roleIds.Editor }, Number(version));
    await admin.patch(`/api/v1/users/${subject.id}`, { status: 'disabled' }, Number(version) + 1);
  });

  it('records sign-ins, failures, sign-out, invitation, role change and disabling with actor, address and target', async () => {
    const answer = await admin.list('/api/v1/audit-events', { 'filter[targetUserId]': subject.id, sort: 'createdAt' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const events = answer.body.data;
    const byType = (type: string) => events.find((e) => e.type === type);
    for (const event of events) {
      expect(event.ip).toBe('127.0.0.1');
      expect(Date.parse(String(event.createdAt))).toBeGreaterThan(Date.now() - 60_000);
    }
    expect(byType('invitationSent')).toMatchObject({ actorId: adminId, targetEmail: subject.email });
    expect(byType('invitationAccepted')).toMatchObject({ actorId: subject.id });
    expect(byType('signInFailed')).toMatchObject({ actorId: null, targetEmail: subject.email });
    expect(byType('signIn')).toMatchObject({ actorId: subject.id });
    expect(byType('roleChanged')).toMatchObject({ actorId: adminId, details: expect.stringContaining('Viewer') });
    expect(byType('userDisabled')).toMatchObject({ actorId: adminId });
    expect(byType('signOut')).toMatchObject({ actorId: subject.id });
  });

  it('records access requests and the decisions on them', async () => {
    const approvedEmail = uniqueEmail('approved');
    const rejectedEmail = uniqueEmail('rejected');
    for (const email of [approvedEmail, rejectedEmail])
      expect((await register(email, strongPassword())).status).toBe(202);
    const idOf = async (email: string) =>
      ((await admin.list('/api/v1/users', { 'filter[email]': email })).body.data[0] as Row).id;
    const approvedId = await idOf(approvedEmail);
    const rejectedId = await idOf(rejectedEmail);
    await admin.post(`/api/v1/users/${approvedId}/approve`, { roleId: roleIds.Viewer });
    await admin.send('POST', `/api/v1/users/${rejectedId}/reject`);
    await catcher.next(approvedEmail);
    await catcher.next(rejectedEmail);

    const decisions = await admin.list('/api/v1/audit-events', {
      'filter[type][in]': 'accessRequested,accessApproved,accessRejected',
      'filter[targetUserId][in]': `${approvedId},${rejectedId}`,
      sort: 'createdAt',
    });
    expect(decisions.body.data.map((e) => [e.type, e.targetUserId, e.actorId])).toEqual([
      ['accessRequested', approvedId, null],
      ['accessRequested', rejectedId, null],
      ['accessApproved', approvedId, adminId],
      ['accessRejected', rejectedId, adminId],
    ]);
  });

  it('lists the same at /auditEvents and /audit-events, to administrators only', async () => {
    const alias = await admin.list('/api/v1/audit-events', { sort: '-createdAt', pageSize: 50 });
    const name = await admin.list('/api/v1/auditEvents', { sort: '-createdAt', pageSize: 50 });
    expect(alias.status).toBe(200);
    expect(alias.body).toEqual(name.body);
    const one = alias.body.data[0] as Row;
    expect((await admin.get(`/api/v1/audit-events/${one.id}`)).body).toMatchObject({ id: one.id, type: one.type });

    for (const path of ['/api/v1/audit-events', '/api/v1/auditEvents', `/api/v1/audit-events/${one.id}`]) {
      const refused = await viewer.api.get(path);
      expect(refused.status).toBe(403);
      expect(errorOf(refused).message).toContain('users:manage');
    }
    const query = await viewer.api.query('/api/v1/audit-events', {});
    expect(query.status).toBe(403);
  });
});

// Last in the file: the test administrator may lose the role here.
describe('the last two administrators', () => {
  it('demoting each other at the same moment: one wins, the other is refused', async () => {
    const other = await invitedUser(accounts, roleIds.Administrator);
    const versions = await Promise.all([userRow(adminId), userRow(other.id)]);
    const [first, second] = await Promise.all([
      admin.patch(`/api/v1/users/${other.id}`, { roleId: roleIds.Editor }, Number(versions[1].version)),
      other.api.patch(`/api/v1/users/${adminId}`, { roleId: roleIds.Editor }, Number(versions[0].version)),
    ]);
    // The loser either passed the permission check before the winner committed
    // (409: it would remove the last administrator) or came after (403).
    const [won, lost] = [first, second].sort((a, b) => a.status - b.status) as [Answer<unknown>, Answer<unknown>];
    expect(won.status, JSON.stringify(won.body)).toBe(200);
    expect([403, 409], JSON.stringify(lost.body)).toContain(lost.status);
    expect(errorOf(lost).code).toBe(lost.status === 409 ? 'last_administrator' : 'forbidden');
    const admins = await server.database.rows(
      sql`select u.id from users u join roles r on r.id = u.role_id where r.name = 'Administrator' and u.status = 'active'`,
    );
    expect(admins).toHaveLength(1);
  });
});
