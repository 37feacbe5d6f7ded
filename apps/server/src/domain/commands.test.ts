import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Permission } from '@data-platform/shared/permissions';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, anonymousActor } from '../auth/actor.ts';
import { configFromEnv } from '../config.ts';
import type { Database } from '../db/client.ts';
import { createMailer } from '../mail/mailer.ts';
import { openTestDatabase, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '../testing/test-server.ts';
import { approveAccessRequest, rejectAccessRequest, requestAccess } from './access-requests.ts';
import { bootstrapAccounts } from './bootstrap.ts';
import type { CommandContext, Requester } from './context.ts';
import { DomainError } from './errors.ts';
import { acceptInvitation, inviteUser, resendInvitation } from './invitations.ts';
import { changeUser } from './user-changes.ts';

// The commands called as a route calls them, on a real database and mailer
// (mail kept in the outbox table), without HTTP in between.

let context: CommandContext;
let closeDatabase: () => Promise<void>;
let dataDir: string;
let admin: Requester;
/** Someone who has not signed in: accepting an invitation, asking for an account. */
const anonymous: Requester = { actor: anonymousActor, ip: '127.0.0.1' };

const password = 'a long passphrase nobody guesses';

async function failure(promise: Promise<unknown>): Promise<Pick<DomainError, 'kind' | 'code' | 'fields'>> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof DomainError)) throw new Error(`Expected a domain error, got ${String(error)}`);
  return { kind: error.kind, code: error.code, fields: error.fields };
}

async function roleId(database: Database, name: string): Promise<number> {
  const [role] = await database.rows<{ id: number }>(sql`select id from roles where name = ${name}`);
  return Number(role?.id);
}

async function statusOf(database: Database, email: string): Promise<string | undefined> {
  const [user] = await database.rows<{ status: string }>(sql`select status from users where email = ${email}`);
  return user?.status;
}

/** The token of the last link mailed to `to` for `page`. */
async function mailedToken(database: Database, to: string, page: string): Promise<string> {
  const [mail] = await database.rows<{ text: string }>(
    sql`select text from outbox where "to" = ${to} order by id desc limit 1`,
  );
  const token = new RegExp(`/${page}\\?token=([A-Za-z0-9_-]+)`).exec(mail?.text ?? '')?.[1];
  if (!token) throw new Error(`No ${page} link mailed to ${to}: ${mail?.text}`);
  return token;
}

const actorHolding = (userId: number, permissions: Permission[]): Actor => ({
  userId,
  permissions: new Set(permissions),
  sessionId: null,
});

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'dp-commands-'));
  const opened = await openTestDatabase();
  closeDatabase = opened.close;
  const config = configFromEnv({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ADMIN_EMAIL: TEST_ADMIN_EMAIL,
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
  });
  await bootstrapAccounts(opened.database, config);
  const mailer = await createMailer(config, opened.database, pino({ level: 'silent' }));
  context = { database: opened.database, config, mailer };
  const [first] = await opened.database.rows<{ id: number; permissions: Permission[] }>(
    sql`select u.id, r.permissions from users u join roles r on r.id = u.role_id where u.email = ${TEST_ADMIN_EMAIL}`,
  );
  admin = { actor: actorHolding(Number(first?.id), first?.permissions ?? []), ip: '127.0.0.1' };
});

afterAll(async () => {
  await closeDatabase();
  await rm(dataDir, { recursive: true, force: true });
});

describe('invitations', () => {
  it('invite mails a link; accepting it names the user, makes them active and signs them in, once', async () => {
    const email = 'invited@commands.example';
    const invited = JSON.parse(
      await inviteUser(context, admin, { email, roleId: await roleId(context.database, 'Viewer') }),
    ) as { email: string; status: string };
    expect({ email: invited.email, status: invited.status }).toEqual({ email, status: 'invited' });
    const token = await mailedToken(context.database, email, 'register');

    const input = { token, firstName: 'Ines', lastName: 'Invited', password };
    const accepted = await acceptInvitation(context, anonymous, input);
    expect(accepted.accessToken).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(accepted.user).toMatchObject({
      email,
      fullName: 'Ines Invited',
      status: 'active',
      role: { name: 'Viewer' },
    });
    expect(await failure(acceptInvitation(context, anonymous, input))).toEqual({
      kind: 'invalid',
      code: 'validation_failed',
      fields: { token: 'This link is not valid any more: it was used, replaced or has expired' },
    });
  });

  it('refuses a second invitation to the same email, and resending to someone already active', async () => {
    const email = 'twice@commands.example';
    const viewer = await roleId(context.database, 'Viewer');
    const { id } = JSON.parse(await inviteUser(context, admin, { email, roleId: viewer })) as { id: number };
    expect(await failure(inviteUser(context, admin, { email, roleId: viewer }))).toEqual({
      kind: 'conflict',
      code: 'conflict',
      fields: { email: 'Already used' },
    });
    const first = await mailedToken(context.database, email, 'register');
    await resendInvitation(context, admin, { userId: id });
    expect(await mailedToken(context.database, email, 'register')).not.toBe(first);
    await acceptInvitation(context, anonymous, {
      token: await mailedToken(context.database, email, 'register'),
      firstName: 'Tom',
      lastName: 'Twice',
      password,
    });
    expect(await failure(resendInvitation(context, admin, { userId: id }))).toEqual({
      kind: 'conflict',
      code: 'not_invited',
      fields: undefined,
    });
  });
});

describe('role grants', () => {
  it('nobody invites with, or gives, a role holding more than they hold', async () => {
    const manager: Requester = {
      actor: actorHolding(admin.actor.userId as number, ['users:read', 'users:manage']),
      ip: '127.0.0.1',
    };
    const administrator = await roleId(context.database, 'Administrator');
    const email = 'raised@commands.example';
    expect(await failure(inviteUser(context, manager, { email, roleId: administrator }))).toEqual({
      kind: 'forbidden',
      code: 'forbidden',
      fields: { roleId: 'Beyond your rights' },
    });
    expect(await statusOf(context.database, email)).toBeUndefined();
  });

  it('the last active administrator keeps the role', async () => {
    const [me] = await context.database.rows<{ version: number }>(
      sql`select version from users where id = ${admin.actor.userId}`,
    );
    const input = {
      userId: admin.actor.userId as number,
      version: Number(me?.version),
      changes: { roleId: await roleId(context.database, 'Viewer') },
    };
    expect(await failure(changeUser(context, admin, input))).toEqual({
      kind: 'conflict',
      code: 'last_administrator',
      fields: undefined,
    });
  });
});

describe('access requests', () => {
  it('a request waits; approval with a role makes the user active, and it cannot be decided twice', async () => {
    const email = 'asking@commands.example';
    await requestAccess(context, anonymous, {
      email,
      firstName: 'Ada',
      lastName: 'Asking',
      password,
    });
    expect(await statusOf(context.database, email)).toBe('pending');
    const [user] = await context.database.rows<{ id: number }>(sql`select id from users where email = ${email}`);
    const userId = Number(user?.id);
    const approved = JSON.parse(
      await approveAccessRequest(context, admin, { userId, roleId: await roleId(context.database, 'Editor') }),
    ) as { status: string };
    expect(approved.status).toBe('active');
    expect(await failure(rejectAccessRequest(context, admin, { userId }))).toEqual({
      kind: 'conflict',
      code: 'not_pending',
      fields: undefined,
    });
  });

  it('a request with a common password is refused before anything is stored', async () => {
    const email = 'weak@commands.example';
    const input = { email, firstName: 'Wes', lastName: 'Weak', password: 'password1234' };
    expect(await failure(requestAccess(context, anonymous, input))).toEqual({
      kind: 'invalid',
      code: 'validation_failed',
      fields: { password: 'This password is too common; choose one that is harder to guess' },
    });
    expect(await statusOf(context.database, email)).toBeUndefined();
  });
});
