import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../auth/tokens.ts';
import { LISTENER_APPLICATION_NAME } from '../db/notifications.ts';
import { signIn, signInWithPermissions, withToken } from '../testing/accounts.ts';
import type { ApiClient } from '../testing/factories.ts';
import {
  type ServerData,
  type ServerProcess,
  signInAsAdmin,
  startReplicas,
  stopServerProcesses,
} from '../testing/server-process.ts';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/test-server.ts';

/**
 * Two server processes over one PostgreSQL, as replicas behind a load
 * balancer: each holds sessions and custom field definitions in memory, and
 * counts throttled attempts in the database. What one process does, the other
 * honours from its very next request: a session revoked, a user disabled, a
 * role changed, a field defined, failed sign-ins counted. PGlite is one
 * process's embedded database, so this file runs only with TEST_DATABASE_URL.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

let data: ServerData | undefined;
let processA: ServerProcess;
let processB: ServerProcess;
let urlA: string;
let urlB: string;
/** The administrator on each process, one session each. */
let adminA: ApiClient;
let adminB: ApiClient;

/** The administrator's side of a process, as the account helpers want it. */
function accountServer(url: string, token: string): TestServer {
  return {
    url,
    fetch(path: string, init: RequestInit = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
      return fetch(`${url}${path}`, { ...init, headers });
    },
  } as TestServer;
}

let tokenA: string;

beforeAll(async () => {
  if (!onPostgres) return;
  const replicas = await startReplicas();
  data = replicas.data;
  processA = replicas.first;
  processB = replicas.second;
  urlA = replicas.first.url;
  urlB = replicas.second.url;
  tokenA = await signInAsAdmin(urlA);
  adminA = withToken(urlA, tokenA);
  adminB = withToken(urlB, await signInAsAdmin(urlB));
}, 180_000);

afterAll(async () => {
  await stopServerProcesses();
  await data?.remove();
});

/** The same session on both processes, each having answered it at least twice (so from its cache). */
async function usedOnBoth(token: string): Promise<{ a: ApiClient; b: ApiClient }> {
  const a = withToken(urlA, token);
  const b = withToken(urlB, token);
  for (const client of [a, b, a, b]) expect((await client.get('/api/v1/auth/me')).status).toBe(200);
  return { a, b };
}

describe.skipIf(!onPostgres)('two server processes on one PostgreSQL', () => {
  it('a session signed out on one is refused by the other on its very next request', async () => {
    const { body } = await signIn(urlA, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
    const { a, b } = await usedOnBoth(body.accessToken);
    expect((await a.post('/api/v1/auth/logout', undefined)).status).toBe(204);
    expect((await b.get('/api/v1/auth/me')).status).toBe(401);
    expect((await a.get('/api/v1/auth/me')).status).toBe(401);
  });

  it('a user disabled on one is refused by the other; a role changed on one applies on the other', async () => {
    const user = await signInWithPermissions(accountServer(urlA, tokenA), ['companies:read']);
    const { a, b } = await usedOnBoth(user.token);
    expect((await b.list('/api/v1/companies')).status).toBe(200);
    expect((await b.list('/api/v1/funds')).status).toBe(403);

    const me = await b.get<{ roleId: number }>('/api/v1/auth/me');
    const role = await adminA.get<{ version: number }>(`/api/v1/roles/${me.body.roleId}`);
    const changed = await adminA.patch(
      `/api/v1/roles/${me.body.roleId}`,
      { permissions: ['funds:read'] },
      role.body.version,
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await b.list('/api/v1/funds')).status).toBe(200);
    expect((await b.list('/api/v1/companies')).status).toBe(403);
    expect((await a.list('/api/v1/companies')).status).toBe(403);

    const account = await adminB.get<{ version: number }>(`/api/v1/users/${user.userId}`);
    const disabled = await adminB.patch(`/api/v1/users/${user.userId}`, { status: 'disabled' }, account.body.version);
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    expect((await a.get('/api/v1/auth/me')).status).toBe(401);
    expect((await b.get('/api/v1/auth/me')).status).toBe(401);
  });

  it('failed sign-ins split between the two count against one limit: the next is refused by both', async () => {
    const user = await signInWithPermissions(accountServer(urlA, tokenA), ['companies:read']);
    const wrong = (url: string) => signIn(url, user.email, 'a wrong guess');
    for (const url of [urlA, urlB, urlA, urlB, urlA]) expect((await wrong(url)).status).toBe(401);
    for (const url of [urlB, urlA]) {
      const throttled = await wrong(url);
      expect(throttled.status).toBe(429);
      expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    }
  });

  it('a custom field defined on one is served by the other on its next request', async () => {
    const before = await adminB.post('/api/v1/companies', { name: 'Before the field' });
    expect(before.status, JSON.stringify(before.body)).toBe(201);
    const defined = await adminA.post('/api/v1/custom-data', { entity: 'companies', name: 'Region', type: 'text' });
    expect(defined.status, JSON.stringify(defined.body)).toBe(201);
    const key = defined.body.key as string;
    const created = await adminB.post('/api/v1/companies', { name: 'After the field', [key]: 'North' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await adminB.get(`/api/v1/companies/${before.body.id}`)).body).toHaveProperty(key, null);
  });

  it('a change told behind a backlog of notifications still holds on the very next request', async () => {
    // Process B holds a session and a field's definition in its caches.
    const { body } = await signIn(urlB, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
    const { b: session } = await usedOnBoth(body.accessToken);
    const defined = await adminA.post('/api/v1/custom-data', { entity: 'companies', name: 'Stage', type: 'text' });
    expect(defined.status, JSON.stringify(defined.body)).toBe(201);
    const key = defined.body.key as string;
    const seeded = await adminB.post('/api/v1/companies', { name: 'Seeded', [key]: 'Seed' });
    expect(seeded.body).toHaveProperty(key, 'Seed');

    // Its listening connection must first hear 200,000 notifications before the changes' own, which draws out
    // the moment between a commit and its notification's arrival. They name sessions that do not exist, and
    // differ (PostgreSQL sends identical ones of one transaction once).
    const admin = new pg.Client({ connectionString: data?.databaseUrl });
    await admin.connect();
    try {
      await admin.query(`select count(pg_notify('auth', 'session ' || -i)) from generate_series(1, 200000) as i`);
      // Both changes made outside the API, by statements of their own, as another process or psql would.
      await admin.query('delete from entity_field_types where id = $1', [defined.body.id]);
      await admin.query('update sessions set revoked_at = now() where token_hash = $1', [hashToken(body.accessToken)]);
    } finally {
      await admin.end();
    }
    const [read, revoked] = await Promise.all([
      adminB.get(`/api/v1/companies/${seeded.body.id}`),
      session.get('/api/v1/auth/me'),
    ]);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty(key);
    expect(revoked.status).toBe(401);
  });

  it('with the listening connections killed, a sign-out on one is still refused by the other, then again once they listen', {
    timeout: 120_000,
  }, async () => {
    const first = await signIn(urlA, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
    const second = await signIn(urlB, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
    const one = await usedOnBoth(first.body.accessToken);
    const two = await usedOnBoth(second.body.accessToken);

    const lost = /Change notifications are not heard/;
    const heard = /Change notifications are heard again/;
    const times = (server: ServerProcess, pattern: RegExp) =>
      (server.output().match(new RegExp(pattern, 'g')) ?? []).length;
    const lostBefore = [times(processA, lost), times(processB, lost)] as const;
    const heardBefore = [times(processA, heard), times(processB, heard)] as const;
    const admin = new pg.Client({ connectionString: data?.databaseUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where application_name = $1 and datname = current_database()`,
        [LISTENER_APPLICATION_NAME],
      );
      expect(rows).toHaveLength(2);
    } finally {
      await admin.end();
    }
    // Each process has seen its loss (its log, not a delay): from then on it caches nothing.
    await processA.waitForOutput(lost, lostBefore[0] + 1);
    await processB.waitForOutput(lost, lostBefore[1] + 1);
    expect((await one.a.post('/api/v1/auth/logout', undefined)).status).toBe(204);
    expect((await one.b.get('/api/v1/auth/me')).status).toBe(401);

    // Listening again, each starts afresh and follows changes again.
    await processA.waitForOutput(heard, heardBefore[0] + 1);
    await processB.waitForOutput(heard, heardBefore[1] + 1);
    expect((await two.b.get('/api/v1/auth/me')).status).toBe(200);
    expect((await two.b.get('/api/v1/auth/me')).status).toBe(200);
    expect((await two.a.post('/api/v1/auth/logout', undefined)).status).toBe(204);
    expect((await two.b.get('/api/v1/auth/me')).status).toBe(401);
  });
});
