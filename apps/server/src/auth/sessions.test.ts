import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type Config, configFromEnv } from '../config.ts';
import { customFieldDefinitions } from '../crud/custom-fields.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { LISTENER_APPLICATION_NAME } from '../db/notifications.ts';
import { bootstrapAccounts } from '../domain/bootstrap.ts';
import { createScratchDatabase, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '../testing/test-server.ts';
import { authenticate, createSession, revokeSession, revokeUserSessions } from './sessions.ts';

/**
 * The session and custom-field caches of one process, against every way the
 * rows they copy change: this process's own revocations, other writers'
 * statements (raw SQL, as another process or a tool would send), and the
 * listening connection lost (PostgreSQL).
 */
const adminUrl = process.env.TEST_DATABASE_URL;

let database: Database;
let config: Config;
let drop: (() => Promise<void>) | undefined;
const warnings: string[] = [];

beforeAll(async () => {
  const scratch = adminUrl ? await createScratchDatabase(adminUrl) : undefined;
  drop = scratch?.drop;
  const template = inject('pgliteTemplate');
  database = await openDatabase({
    url: scratch?.url,
    poolSize: 4,
    loadDataDir: !scratch && template ? new Blob([await readFile(template)]) : undefined,
    log: { warn: (message) => warnings.push(message) },
  });
  config = configFromEnv({ ADMIN_EMAIL: TEST_ADMIN_EMAIL, ADMIN_PASSWORD: TEST_ADMIN_PASSWORD, LOG_LEVEL: 'silent' });
  await bootstrapAccounts(database, config);
});

afterAll(async () => {
  await database?.close();
  await drop?.();
});

let counter = 0;

/** A user of a new role holding `permissions`, with a session; the other writer's statements. */
async function userWithSession(permissions: string[]) {
  counter++;
  const [role] = await database.rows<{ id: number }>(
    sql`insert into roles (name, permissions) values (${`Cache role ${counter}`}, ${`{${permissions.join(',')}}`}::text[])
      returning id`,
  );
  const [user] = await database.rows<{ id: number }>(
    sql`insert into users (email, first_name, status, role_id)
      values (${`cache-${counter}@test.example`}, 'Cache', 'active', ${role?.id}) returning id`,
  );
  const userId = Number(user?.id);
  const token = await createSession(database, config, userId, { ip: '127.0.0.1' });
  return { userId, roleId: Number(role?.id), token };
}

/** Another writer's statement, then the wait for its notification, as the server's own writes wait before answering. */
async function elsewhere(statement: ReturnType<typeof sql>) {
  await database.rows(statement);
  await database.caughtUp();
}

const permissionsOf = async (token: string) => [...((await authenticate(database, config, token))?.permissions ?? [])];

describe('the session cache', () => {
  it('refuses a session this process revoked on the very next request, alone or with all of its user', async () => {
    const one = await userWithSession(['companies:read']);
    expect(await authenticate(database, config, one.token)).toMatchObject({ userId: one.userId });
    expect(await authenticate(database, config, one.token)).toMatchObject({ userId: one.userId });
    const actor = await authenticate(database, config, one.token);
    await revokeSession(database, actor?.sessionId as number);
    expect(await authenticate(database, config, one.token)).toBeUndefined();

    const two = await userWithSession(['companies:read']);
    const kept = await createSession(database, config, two.userId, { ip: '127.0.0.1' });
    const keptActor = await authenticate(database, config, kept);
    expect(await authenticate(database, config, two.token)).toBeDefined();
    await database.db.transaction(async (tx) => {
      await revokeUserSessions(database, two.userId, tx, keptActor?.sessionId as number);
    });
    expect(await authenticate(database, config, two.token)).toBeUndefined();
    expect(await authenticate(database, config, kept)).toMatchObject({ userId: two.userId });
  });

  it('follows other writers: revocation, disabled user, role permissions, another role, an earlier end', async () => {
    const user = await userWithSession(['companies:read']);
    expect(await permissionsOf(user.token)).toEqual(['companies:read']);

    await elsewhere(sql`update roles set permissions = '{companies:read,funds:read}' where id = ${user.roleId}`);
    expect(await permissionsOf(user.token)).toEqual(['companies:read', 'funds:read']);

    const other = await userWithSession(['deals:read']);
    await elsewhere(sql`update users set role_id = ${other.roleId} where id = ${user.userId}`);
    expect(await permissionsOf(user.token)).toEqual(['deals:read']);

    await elsewhere(sql`update users set status = 'disabled' where id = ${user.userId}`);
    expect(await authenticate(database, config, user.token)).toBeUndefined();
    await elsewhere(sql`update users set status = 'active' where id = ${user.userId}`);
    expect(await authenticate(database, config, user.token)).toBeDefined();

    await elsewhere(sql`update sessions set expires_at = now() - interval '1 second' where user_id = ${user.userId}`);
    expect(await authenticate(database, config, user.token)).toBeUndefined();

    expect(await authenticate(database, config, other.token)).toBeDefined();
    await elsewhere(sql`update sessions set revoked_at = now() where user_id = ${other.userId}`);
    expect(await authenticate(database, config, other.token)).toBeUndefined();

    const deleted = await userWithSession(['companies:read']);
    expect(await authenticate(database, config, deleted.token)).toBeDefined();
    await elsewhere(sql`delete from users where id = ${deleted.userId}`);
    expect(await authenticate(database, config, deleted.token)).toBeUndefined();
  });

  it('still decides the idle limit: a session idle too long in the database is refused', async () => {
    const user = await userWithSession(['companies:read']);
    expect(await authenticate(database, config, user.token)).toBeDefined();
    await elsewhere(
      sql`update sessions set last_used_at = now() - make_interval(secs => ${config.sessionIdleMs / 1000 + 5})
        where user_id = ${user.userId}`,
    );
    expect(await authenticate(database, config, user.token)).toBeUndefined();
  });
});

describe('the custom-field cache', () => {
  it('serves a definition made by another writer on the next call', async () => {
    const before = await customFieldDefinitions(database);
    await elsewhere(sql`insert into entity_field_types (entity, name, type) values ('companies', 'Cached', 'text')`);
    const after = await customFieldDefinitions(database);
    expect(after.map((field) => field.name)).toEqual([...before.map((field) => field.name), 'Cached']);
    await elsewhere(sql`update entity_field_types set name = 'Renamed' where name = 'Cached'`);
    expect((await customFieldDefinitions(database)).at(-1)?.name).toBe('Renamed');
  });
});

describe.skipIf(!adminUrl)('the listening connection lost (PostgreSQL)', () => {
  it('caches nothing until it listens again, then starts empty and follows changes again', async () => {
    const user = await userWithSession(['companies:read']);
    const other = await userWithSession(['companies:read']);
    expect(await authenticate(database, config, user.token)).toBeDefined();
    expect(await authenticate(database, config, other.token)).toBeDefined();
    const fieldsBefore = (await customFieldDefinitions(database)).length;

    const lostBefore = warnings.filter((line) => /Change notifications are not heard/.test(line)).length;
    const killed = await database.rows(
      sql`select pg_terminate_backend(pid) from pg_stat_activity
        where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`,
    );
    expect(killed).toHaveLength(1);
    // The process has seen the loss (a log line, not a delay).
    await vi.waitFor(
      () =>
        expect(warnings.filter((line) => /Change notifications are not heard/.test(line)).length).toBe(lostBefore + 1),
      { timeout: 30_000, interval: 10 },
    );
    // Changes nobody may hear of: still seen, the cache being off (or emptied when listening again).
    await database.rows(sql`update sessions set revoked_at = now() where user_id = ${user.userId}`);
    await database.rows(
      sql`insert into entity_field_types (entity, name, type) values ('companies', 'Unheard', 'text')`,
    );
    expect(await authenticate(database, config, user.token)).toBeUndefined();
    expect((await customFieldDefinitions(database)).length).toBe(fieldsBefore + 1);

    await vi.waitFor(() => expect(warnings.some((line) => /heard again/.test(line))).toBe(true), {
      timeout: 30_000,
      interval: 10,
    });
    // Listening again: cached anew, and a change is heard again.
    expect(await authenticate(database, config, other.token)).toBeDefined();
    expect(await authenticate(database, config, other.token)).toBeDefined();
    await elsewhere(sql`update users set status = 'disabled' where id = ${other.userId}`);
    expect(await authenticate(database, config, other.token)).toBeUndefined();
  });
});
