import { createHash } from 'node:crypto';
import { allPermissions } from '@data-platform/shared/permissions';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { configFromEnv } from '../config.ts';
import { bootstrapAccounts } from '../domain/bootstrap.ts';
import { buildApp } from '../http/app.ts';
import {
  type AccountServer,
  invitedUser,
  postFrom,
  roleIdOf,
  signIn,
  strongPassword,
  uniqueEmail,
  withToken,
} from '../testing/accounts.ts';
import { type Answer, type ApiClient, adminClient, apiClient, errorOf } from '../testing/factories.ts';
import { type MailCatcher, startMailCatcher, tokenOfLink } from '../testing/mail.ts';
import {
  openTestDatabase,
  startTestServer,
  TEST_ADMIN_EMAIL,
  TEST_ADMIN_PASSWORD,
  type TestServer,
} from '../testing/test-server.ts';

/**
 * Sign-in, sessions, sign-out, passwords, password reset by mail (through a
 * real SMTP server), throttling, and which routes need a token, over HTTP.
 */

const PUBLIC_URL = 'https://data.example.test';
let server: TestServer;
let catcher: MailCatcher;
let admin: ApiClient;
let accounts: AccountServer;
let editorRoleId: number;

beforeAll(async () => {
  catcher = await startMailCatcher();
  server = await startTestServer({
    SMTP_URL: catcher.url,
    PUBLIC_URL,
    SESSION_IDLE_MINUTES: '10',
    SESSION_MAX_HOURS: '2',
  });
  admin = adminClient(server);
  accounts = { url: server.url, publicUrl: PUBLIC_URL, admin, mailbox: catcher };
  editorRoleId = await roleIdOf(admin, 'Editor');
});

afterAll(async () => {
  await server?.close();
  await catcher?.close();
});

const anonymous = () => apiClient(server.url);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Moves a session's clock: `set` is an SQL assignment list such as `last_used_at = now() - interval '9 minutes'`.
 * Then waits for the change's notification to reach the server (which caches sessions), as the server's
 * own writes do before they answer.
 */
async function ageSession(token: string, set: ReturnType<typeof sql>) {
  const updated = await server.database.rows(
    sql`update sessions set ${set} where token_hash = ${sha256(token)} returning id`,
  );
  expect(updated).toHaveLength(1);
  await server.database.caughtUp();
}

async function sessionOf(token: string) {
  const [row] = await server.database.rows<{ created_at: string; last_used_at: string; expires_at: string }>(
    sql`select created_at::text, last_used_at::text, expires_at::text from sessions where token_hash = ${sha256(token)}`,
  );
  if (!row) throw new Error('No session with this token');
  return row;
}

/**
 * A throttled answer's Retry-After: the rest of the limiter's window after
 * the oldest attempt it counts, made within the last minute by the test.
 */
function expectRetryAfter(answer: { headers: Headers }, windowMinutes: number) {
  const seconds = Number(answer.headers.get('retry-after'));
  expect(seconds).toBeGreaterThan((windowMinutes - 1) * 60);
  expect(seconds).toBeLessThanOrEqual(windowMinutes * 60);
}

function expectUnauthenticated(answer: Answer<unknown>) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(401);
  expect(errorOf(answer).code).toBe('unauthenticated');
  expect(answer.headers.get('www-authenticate')).toBe('Bearer');
}

function expectGenericSignInRefusal(answer: Answer<unknown>) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(401);
  expect(answer.body).toEqual({
    error: { code: 'invalid_credentials', message: 'The email or the password is not right' },
  });
}

describe('signing in', () => {
  it('answers a bearer token and the user with role and permissions, and /auth/me says the same', async () => {
    const answer = await signIn(server.url, TEST_ADMIN_EMAIL.toUpperCase(), TEST_ADMIN_PASSWORD);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { accessToken, user } = answer.body;
    expect(accessToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(user).toMatchObject({ email: TEST_ADMIN_EMAIL, status: 'active', role: { name: 'Administrator' } });
    expect(new Set((user.role as { permissions: string[] }).permissions)).toEqual(new Set(allPermissions));
    expect(JSON.stringify(answer.body)).not.toMatch(/argon2|password/i);

    const me = await withToken(server.url, accessToken).get('/api/v1/auth/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: user.id, email: TEST_ADMIN_EMAIL, role: user.role });
    expect(me.body.lastSignInAt).toEqual(expect.any(String));
  });

  it('gives every sign-in a new random token, stored only as its SHA-256', async () => {
    const first = await signIn(server.url, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
    const second = await signIn(server.url, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
    expect(first.body.accessToken).not.toBe(second.body.accessToken);
    for (const token of [first.body.accessToken, second.body.accessToken]) {
      const stored = await server.database.rows<{ token_hash: string }>(
        sql`select token_hash from sessions where token_hash = ${sha256(token)}`,
      );
      expect(stored).toHaveLength(1);
      const inClear = await server.database.rows(
        sql`select id from sessions where token_hash = ${token} or ip = ${token} or user_agent = ${token}`,
      );
      expect(inClear).toHaveLength(0);
    }
  });

  it('answers a wrong password and an unknown email the same', async () => {
    const wrongPassword = await signIn(server.url, TEST_ADMIN_EMAIL, 'not the right password');
    const unknownEmail = await signIn(server.url, uniqueEmail('nobody'), TEST_ADMIN_PASSWORD);
    expectGenericSignInRefusal(wrongPassword);
    expectGenericSignInRefusal(unknownEmail);
    expect(unknownEmail.headers.get('content-type')).toBe(wrongPassword.headers.get('content-type'));
  });

  it('refuses malformed sign-in bodies with 400 naming the field', async () => {
    const answer = await anonymous().post('/api/v1/auth/login', { email: 'not an email', password: 'x' });
    expect(answer.status).toBe(400);
    expect(errorOf(answer).fields).toHaveProperty('email');
  });
});

describe('sessions', () => {
  it('signing out revokes that token only', async () => {
    const user = await invitedUser(accounts, editorRoleId);
    const other = await signIn(server.url, user.email, user.password);
    expect((await user.api.post('/api/v1/auth/logout', undefined)).status).toBe(204);
    expectUnauthenticated(await user.api.get('/api/v1/auth/me'));
    expectUnauthenticated(await user.api.post('/api/v1/auth/logout', undefined));
    expect((await withToken(server.url, other.body.accessToken).get('/api/v1/auth/me')).status).toBe(200);
  });

  it('ends a session idle longer than SESSION_IDLE_MINUTES, and keeps one in use alive', async () => {
    const { body } = await signIn(server.url, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
    const client = withToken(server.url, body.accessToken);

    await ageSession(body.accessToken, sql`last_used_at = now() - interval '9 minutes'`);
    expect((await client.get('/api/v1/auth/me')).status).toBe(200);
    // The use moved the idle clock: nine more minutes later it is still alive.
    const touched = await sessionOf(body.accessToken);
    expect(Date.now() - Date.parse(touched.last_used_at)).toBeLessThan(60_000);

    await ageSession(body.accessToken, sql`last_used_at = now() - interval '10 minutes 5 seconds'`);
    expectUnauthenticated(await client.get('/api/v1/auth/me'));
    // An expired session stays expired, even though it was just presented.
    expectUnauthenticated(await client.get('/api/v1/auth/me'));
  });

  it('ends a session SESSION_MAX_HOURS after sign-in, however busy', async () => {
    const { body } = await signIn(server.url, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
    const client = withToken(server.url, body.accessToken);
    const session = await sessionOf(body.accessToken);
    const lifetime = Date.parse(session.expires_at) - Date.parse(session.created_at);
    expect(Math.abs(lifetime - 2 * 3_600_000)).toBeLessThan(60_000);

    await ageSession(body.accessToken, sql`expires_at = now() + interval '2 seconds'`);
    expect((await client.get('/api/v1/auth/me')).status).toBe(200);
    await ageSession(body.accessToken, sql`expires_at = now() - interval '1 second', last_used_at = now()`);
    expectUnauthenticated(await client.get('/api/v1/auth/me'));
  });

  it('last 30 minutes idle and 12 hours at most unless configured otherwise', () => {
    const defaults = configFromEnv({});
    expect(defaults.sessionIdleMs).toBe(30 * 60_000);
    expect(defaults.sessionMaxMs).toBe(12 * 3_600_000);
    expect(defaults.invitationTtlMs).toBe(7 * 86_400_000);
    expect(defaults.passwordResetTtlMs).toBe(60 * 60_000);
  });

  it('answers 401 to a made-up or malformed token', async () => {
    const madeUp = withToken(server.url, 'A'.repeat(43));
    expectUnauthenticated(await madeUp.get('/api/v1/auth/me'));
    const malformed = apiClient(server.url, { authorization: 'Basic YWRtaW46YWRtaW4=' });
    expectUnauthenticated(await malformed.get('/api/v1/companies'));
  });
});

describe('passwords', () => {
  it('are stored as argon2id with 19 MiB, 2 passes and 1 lane', async () => {
    const [row] = await server.database.rows<{ password_hash: string }>(
      sql`select c.password_hash from user_credentials c join users u on u.id = c.user_id where u.email = ${TEST_ADMIN_EMAIL}`,
    );
    const phc = /^\$(argon2(?:id|i|d))\$v=(\d+)\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(
      row?.password_hash ?? '',
    );
    expect(phc, row?.password_hash).not.toBeNull();
    const [, algorithm, version, memory, passes, lanes, salt, hash] = phc as RegExpExecArray;
    expect({ algorithm, version, memory, passes, lanes }).toEqual({
      algorithm: 'argon2id',
      version: '19',
      memory: '19456',
      passes: '2',
      lanes: '1',
    });
    expect(Buffer.from(salt as string, 'base64').length).toBeGreaterThanOrEqual(16);
    expect(Buffer.from(hash as string, 'base64').length).toBeGreaterThanOrEqual(32);
  });

  it('must have 12 characters or more, may have 256, and must not be common', async () => {
    const register = (password: string) =>
      anonymous().post('/api/v1/auth/register', {
        email: uniqueEmail('policy'),
        firstName: 'P',
        lastName: 'Q',
        password,
      });
    const refusal = async (password: string) => {
      const answer = await register(password);
      expect(answer.status, password).toBe(400);
      return errorOf(answer).fields?.password;
    };
    expect(await refusal('elevenchars')).toMatch(/at least 12/i);
    for (const common of ['password1234', 'Password123!', 'qwertyqwerty', '123456789012', 'iloveyouiloveyou']) {
      expect(await refusal(common)).toMatch(/too common/i);
    }
    expect(await refusal('x'.repeat(30))).toMatch(/too common/i);
    expect(await refusal(`${'long passphrase '.repeat(16)}!`)).toMatch(/at most 256/i);
    expect((await register('twelve chars')).status).toBe(202);
    expect((await register(`${'long passphrase '.repeat(16)}`)).status).toBe(202);
  });

  it('must not be the user’s email, its local part or the product’s name, wherever a password is set', async () => {
    const email = uniqueEmail('jane.doe');
    const local = email.split('@')[0] as string;
    const personal = [
      email,
      email.toUpperCase(),
      `${local}2024!`,
      `!!${local.replace(/[.-]/g, '_')}`,
      'Data Platform 2024',
      'dataplatform!!',
      '2024DataPlatform?',
      'data-platform-data-platform',
    ];
    for (const password of personal) {
      const answer = await anonymous().post('/api/v1/auth/register', {
        email,
        firstName: 'J',
        lastName: 'D',
        password,
      });
      expect(answer.status, password).toBe(400);
      expect(errorOf(answer).fields?.password, password).toMatch(/your email or the name of this application/);
    }
    // Words that merely contain these are fine in a passphrase.
    const fine = await anonymous().post('/api/v1/auth/register', {
      email,
      firstName: 'J',
      lastName: 'D',
      password: 'my data platform tugboat',
    });
    expect(fine.status).toBe(202);

    const invitedEmail = uniqueEmail('invitee');
    expect((await admin.post('/api/v1/users/invitations', { email: invitedEmail, roleId: editorRoleId })).status).toBe(
      201,
    );
    const token = tokenOfLink(await catcher.next(invitedEmail), `${PUBLIC_URL}/register`);
    const accept = (password: string) =>
      anonymous().post('/api/v1/auth/accept-invitation', { token, firstName: 'I', lastName: 'N', password });
    expect(errorOf(await accept(`${invitedEmail}`)).fields?.password).toMatch(/your email/);
    // The refusal did not use up the invitation.
    const accepted = await accept(strongPassword());
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);

    const member = await invitedUser(accounts, editorRoleId);
    const change = await member.api.post('/api/v1/auth/change-password', {
      currentPassword: member.password,
      password: `${member.email.split('@')[0]}#1`,
    });
    expect(errorOf(change).fields?.password).toMatch(/your email/);
    expect((await anonymous().post('/api/v1/auth/forgot-password', { email: member.email })).status).toBe(202);
    const resetToken = tokenOfLink(await catcher.next(member.email), `${PUBLIC_URL}/reset-password`);
    const reset = (password: string) =>
      anonymous().post('/api/v1/auth/reset-password', { token: resetToken, password });
    expect(errorOf(await reset('Data Platform 1!')).fields?.password).toMatch(/name of this application/);
    expect((await reset(strongPassword())).status).toBe(200);
  });

  it('change with the current password; other sessions end, this one stays', async () => {
    const user = await invitedUser(accounts, editorRoleId);
    const elsewhere = await signIn(server.url, user.email, user.password);
    const password = strongPassword();

    const wrong = await user.api.post('/api/v1/auth/change-password', { currentPassword: 'not it at all', password });
    expect(wrong.status).toBe(400);
    expect(errorOf(wrong).fields).toHaveProperty('currentPassword');
    const common = await user.api.post('/api/v1/auth/change-password', {
      currentPassword: user.password,
      password: 'password12345',
    });
    expect(common.status).toBe(400);
    expect(errorOf(common).fields?.password).toMatch(/too common/i);
    const short = await user.api.post('/api/v1/auth/change-password', {
      currentPassword: user.password,
      password: 'short',
    });
    expect(short.status).toBe(400);

    const changed = await user.api.post('/api/v1/auth/change-password', { currentPassword: user.password, password });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await user.api.get('/api/v1/auth/me')).status).toBe(200);
    expectUnauthenticated(await withToken(server.url, elsewhere.body.accessToken).get('/api/v1/auth/me'));
    expectGenericSignInRefusal(await signIn(server.url, user.email, user.password));
    expect((await signIn(server.url, user.email, password)).status).toBe(200);
  });

  it('change answers 429 after five wrong current passwords', async () => {
    const user = await invitedUser(accounts, editorRoleId);
    const attempt = () =>
      user.api.post('/api/v1/auth/change-password', { currentPassword: 'a wrong guess', password: strongPassword() });
    for (let i = 0; i < 5; i++) expect((await attempt()).status).toBe(400);
    const throttled = await attempt();
    expect(throttled.status).toBe(429);
    expectRetryAfter(throttled, 15);
  });
});

describe('password reset', () => {
  const forgot = (email: string) => anonymous().post('/api/v1/auth/forgot-password', { email });
  const reset = (token: string, password: string) =>
    anonymous().post('/api/v1/auth/reset-password', { token, password });

  it('mails a link valid one hour that sets a new password once and ends every session', async () => {
    const user = await invitedUser(accounts, editorRoleId);
    const second = await signIn(server.url, user.email, user.password);

    const asked = await forgot(user.email.toUpperCase());
    expect(asked.status).toBe(202);
    const mail = await catcher.next(user.email);
    expect(mail.subject).toBe('Reset your Data Platform password');
    expect(mail.text).toContain('expires in 60 minutes');
    expect(mail.text).toContain('— Data Platform');
    const token = tokenOfLink(mail, `${PUBLIC_URL}/reset-password`);
    const [issued] = await server.database.rows<{ ttl: number }>(
      sql`select extract(epoch from expires_at - created_at)::int as ttl from user_tokens
        where user_id = ${user.id} and purpose = 'passwordReset'`,
    );
    expect(Math.abs(Number(issued?.ttl) - 3600)).toBeLessThanOrEqual(60);

    // A refused password does not spend the link.
    const common = await reset(token, 'password123456');
    expect(common.status).toBe(400);
    expect(errorOf(common).fields?.password).toMatch(/too common/i);

    const password = strongPassword();
    const done = await reset(token, password);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expectUnauthenticated(await user.api.get('/api/v1/auth/me'));
    expectUnauthenticated(await withToken(server.url, second.body.accessToken).get('/api/v1/auth/me'));
    expectGenericSignInRefusal(await signIn(server.url, user.email, user.password));
    expect((await signIn(server.url, user.email, password)).status).toBe(200);

    const again = await reset(token, strongPassword());
    expect(again.status).toBe(400);
    expect(errorOf(again).fields?.token).toMatch(/not valid/i);
    expect((await signIn(server.url, user.email, password)).status).toBe(200);

    const events = await admin.list('/api/v1/audit-events', { 'filter[targetUserId]': user.id, sort: 'createdAt' });
    expect(events.body.data.map((e) => e.type)).toEqual(
      expect.arrayContaining(['passwordResetRequested', 'passwordReset']),
    );
  });

  it('refuses a reset link after its hour', async () => {
    const user = await invitedUser(accounts, editorRoleId);
    expect((await forgot(user.email)).status).toBe(202);
    const token = tokenOfLink(await catcher.next(user.email), `${PUBLIC_URL}/reset-password`);
    await server.database.rows(
      sql`update user_tokens set expires_at = now() - interval '1 second' where token_hash = ${sha256(token)}`,
    );
    const late = await reset(token, strongPassword());
    expect(late.status).toBe(400);
    expect(errorOf(late).fields).toHaveProperty('token');
    expect((await signIn(server.url, user.email, user.password)).status).toBe(200);
  });

  it('answers an unknown email exactly as a known one, and mails nothing to it', async () => {
    const user = await invitedUser(accounts, editorRoleId);
    const nobody = uniqueEmail('nobody');
    const unknown = await forgot(nobody);
    const known = await forgot(user.email);
    expect(unknown.status).toBe(202);
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(unknown.headers.get('content-type')).toBe(known.headers.get('content-type'));
    await catcher.next(user.email);
    expect(await catcher.hasMail(nobody)).toBe(false);
  });

  it('answers a known email the same when its mail cannot be delivered', async () => {
    const user = await invitedUser(accounts, editorRoleId);
    catcher.refuse(user.email);
    const unknown = await forgot(uniqueEmail('nobody'));
    const undeliverable = await forgot(user.email);
    expect(undeliverable.status, JSON.stringify(undeliverable.body)).toBe(unknown.status);
    expect(undeliverable.body).toEqual(unknown.body);
  });

  it('throttles reset mails per account and per address, the same for unknown emails', async () => {
    const email = uniqueEmail('nobody');
    for (let i = 0; i < 3; i++) {
      expect((await postFrom('127.0.0.3', server.url, '/api/v1/auth/forgot-password', { email })).status).toBe(202);
    }
    const throttled = await postFrom('127.0.0.4', server.url, '/api/v1/auth/forgot-password', { email });
    expect(throttled.status).toBe(429);
    expectRetryAfter(throttled, 60);

    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const answer = await postFrom('127.0.0.5', server.url, '/api/v1/auth/forgot-password', {
        email: uniqueEmail('nobody'),
      });
      statuses.push(answer.status);
      if (answer.status === 429) expectRetryAfter(answer, 60);
    }
    expect(statuses).toEqual([...Array(10).fill(202), 429]);
  });
});

describe('throttling failed sign-ins', () => {
  it('answers 429 with Retry-After after five failures for one account from one address, until the window has passed', async () => {
    const user = await invitedUser(accounts, editorRoleId);
    for (let i = 0; i < 5; i++) expectGenericSignInRefusal(await signIn(server.url, user.email, 'a wrong guess'));
    for (const password of ['a wrong guess', user.password]) {
      const throttled = await signIn(server.url, user.email, password);
      expect(throttled.status).toBe(429);
      expect(errorOf(throttled).code).toBe('too_many_requests');
      expectRetryAfter(throttled, 15);
    }
    // Other accounts from the same address are not held up, nor the user's open sessions.
    expect((await signIn(server.url, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD)).status).toBe(200);
    expect((await user.api.get('/api/v1/auth/me')).status).toBe(200);

    // No permanent lockout: once the window has passed, the right password works.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 15 * 60_000 + 1000);
      expect((await signIn(server.url, user.email, user.password)).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('holds up the address that guesses, not the owner signing in from elsewhere', async () => {
    const user = await invitedUser(accounts, editorRoleId);
    const attacker = (password: string) =>
      postFrom('127.0.0.6', server.url, '/api/v1/auth/login', { email: user.email, password });
    for (let i = 0; i < 5; i++) expectGenericSignInRefusal(await attacker('a wrong guess'));
    const throttled = await attacker(user.password);
    expect(throttled.status).toBe(429);
    expectRetryAfter(throttled, 15);
    const owner = await postFrom('127.0.0.7', server.url, '/api/v1/auth/login', {
      email: user.email,
      password: user.password,
    });
    expect(owner.status, JSON.stringify(owner.body)).toBe(200);
    expect((await attacker(user.password)).status).toBe(429);
  });

  it('holds up every address once fifty guesses at one account came from many', async () => {
    const user = await invitedUser(accounts, editorRoleId);
    const from = (address: string, password: string) =>
      postFrom(address, server.url, '/api/v1/auth/login', { email: user.email, password });
    // Ten addresses, each at its own limit of five.
    for (let address = 10; address < 20; address++) {
      for (let i = 0; i < 5; i++) expectGenericSignInRefusal(await from(`127.0.0.${address}`, 'a wrong guess'));
    }
    const ceiling = await from('127.0.0.20', user.password);
    expect(ceiling.status).toBe(429);
    expectRetryAfter(ceiling, 15);
    // Open sessions are not touched, and other accounts sign in from there.
    expect((await user.api.get('/api/v1/auth/me')).status).toBe(200);
    expect(
      (
        await postFrom('127.0.0.20', server.url, '/api/v1/auth/login', {
          email: TEST_ADMIN_EMAIL,
          password: TEST_ADMIN_PASSWORD,
        })
      ).status,
    ).toBe(200);
  });

  it('answers 429 with Retry-After after thirty failures from one address, whichever accounts', async () => {
    const from = (body: unknown) => postFrom('127.0.0.2', server.url, '/api/v1/auth/login', body);
    for (let i = 0; i < 30; i++) {
      const answer = await from({ email: uniqueEmail('guess'), password: 'a wrong guess' });
      expectGenericSignInRefusal(answer);
    }
    const throttled = await from({ email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD });
    expect(throttled.status).toBe(429);
    expectRetryAfter(throttled, 15);
    expect((await signIn(server.url, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD)).status).toBe(200);
  });
});

describe('routes that need a token', () => {
  const open = [
    'POST /api/v1/auth/login',
    'POST /api/v1/auth/register',
    'POST /api/v1/auth/forgot-password',
    'POST /api/v1/auth/reset-password',
    'POST /api/v1/auth/accept-invitation',
  ];

  /** Every /api/v1 operation in the OpenAPI document, as `METHOD /path` with path parameters filled in. */
  async function documentedRoutes(): Promise<string[]> {
    const document = (await anonymous().get<{ paths: Record<string, Record<string, unknown>> }>('/api/openapi.json'))
      .body;
    return Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([path, operations]) =>
        Object.keys(operations)
          .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
          .map((method) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '1')}`),
      );
  }

  it('answers 401 without a token on every /api/v1 route but the five open ones', async () => {
    const routes = await documentedRoutes();
    for (const sample of [
      'GET /api/v1/companies',
      'POST /api/v1/companies/query',
      'GET /api/v1/companies/1',
      'POST /api/v1/companies',
      'PATCH /api/v1/companies/1',
      'DELETE /api/v1/companies/1',
      'GET /api/v1/deals/1/investors',
      'GET /api/v1/notes',
      'POST /api/v1/files',
      'GET /api/v1/files/1/content',
      'GET /api/v1/users',
      'PATCH /api/v1/users/1',
      'DELETE /api/v1/users/1',
      'POST /api/v1/users/invitations',
      'POST /api/v1/users/1/approve',
      'GET /api/v1/roles',
      'POST /api/v1/roles',
      'DELETE /api/v1/roles/1',
      'GET /api/v1/outbox',
      'GET /api/v1/audit-events',
      'GET /api/v1/auth/me',
      'POST /api/v1/auth/logout',
      'POST /api/v1/auth/change-password',
      ...open,
    ]) {
      expect(routes).toContain(sample);
    }
    const answeredOpen: string[] = [];
    for (const route of routes) {
      const [method, path] = route.split(' ') as [string, string];
      const answer = await anonymous().send(method, path, ['POST', 'PATCH'].includes(method) ? { body: {} } : {});
      if (answer.status === 401) expect(errorOf(answer).code, route).toBe('unauthenticated');
      else answeredOpen.push(`${route} → ${answer.status}`);
    }
    expect(answeredOpen.map((r) => r.split(' → ')[0]).sort()).toEqual([...open].sort());
    // Open routes still check their input.
    expect(
      answeredOpen.every((r) => r.endsWith('→ 400')),
      answeredOpen.join('\n'),
    ).toBe(true);
    // Access is decided on the matched route: a path no route matches is a 404 that holds no data.
    const unknown = await anonymous().get('/api/v1/no-such-route');
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown).code).toBe('not_found');
  });

  it('answers 401 to a revoked token on data, users, roles and outbox routes', async () => {
    const { body } = await signIn(server.url, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
    const client = withToken(server.url, body.accessToken);
    expect((await client.post('/api/v1/auth/logout', undefined)).status).toBe(204);
    for (const path of ['/api/v1/companies', '/api/v1/users', '/api/v1/roles', '/api/v1/outbox', '/api/v1/auth/me']) {
      expectUnauthenticated(await client.get(path));
    }
  });
});

describe('the first administrator', () => {
  /** Bootstraps an empty database with `env`, serves it, and signs in with what the start-up told. */
  async function firstStart(env: Record<string, string>) {
    const { database, close } = await openTestDatabase();
    try {
      const config = configFromEnv({ LOG_LEVEL: 'silent', ...env });
      const first = await bootstrapAccounts(database, config);
      const again = await bootstrapAccounts(database, config);
      const app = await buildApp({ config, database, logger: false });
      await app.listen({ port: 0, host: '127.0.0.1' });
      try {
        const address = app.server.address();
        const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
        const password = first?.generatedPassword ?? env.ADMIN_PASSWORD ?? '';
        const signedIn = await signIn(url, first?.email ?? '', password);
        const [{ n }] = (await database.rows<{ n: number }>(sql`select count(*)::int as n from users`)) as [
          { n: number },
        ];
        return { first, again, signedIn, users: n };
      } finally {
        await app.close();
      }
    } finally {
      await close();
    }
  }

  it('is admin@example.com with a random password shown once when ADMIN_EMAIL and ADMIN_PASSWORD are unset', async () => {
    const { first, again, signedIn, users } = await firstStart({});
    expect(first?.email).toBe('admin@example.com');
    expect(first?.generatedPassword?.length).toBeGreaterThanOrEqual(16);
    expect(again).toBeUndefined();
    expect(users).toBe(1);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.user).toMatchObject({ email: 'admin@example.com', role: { name: 'Administrator' } });
  });

  it('comes from ADMIN_EMAIL and ADMIN_PASSWORD when set', async () => {
    const { first, signedIn, users } = await firstStart({
      ADMIN_EMAIL: 'Boss@Example.test',
      ADMIN_PASSWORD: 'a chosen first password',
    });
    expect(first).toEqual({ email: 'boss@example.test', generatedPassword: undefined });
    expect(users).toBe(1);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ email: 'boss@example.test', role: { name: 'Administrator' } });
  });
});
