import { users } from '@data-platform/shared/entities/users';
import { ADMINISTRATOR } from '@data-platform/shared/permissions';
import { sql } from 'drizzle-orm';
import { assertWithinRights } from '../access/delegation.ts';
import type { Actor } from '../auth/actor.ts';
import { getRecord } from '../crud/records.ts';
import type { Database, Executor } from '../db/client.ts';
import { conflict, notFound } from './errors.ts';

/** A user as the user commands read it, with their role. */
export interface UserRow {
  id: number;
  email: string;
  status: string;
  full_name: string;
  role_id: number | null;
  role_name: string | null;
  role_permissions: string[] | null;
}

/**
 * The user, locked against other changes until the transaction ends. `no key
 * update` still lets other transactions reference the user meanwhile (as the
 * actor of their changes), which plain `for update` would make wait.
 */
export async function lockedUser(database: Database, id: number, executor: Executor): Promise<UserRow> {
  const [user] = await database.rows<UserRow>(
    sql`select u.id, u.email, u.status, u.full_name, u.role_id, r.name as role_name, r.permissions as role_permissions
      from users u left join roles r on r.id = u.role_id where u.id = ${id} for no key update of u`,
    executor,
  );
  if (!user || user.status === 'deleted') throw notFound(`User ${id}`);
  // Bigint ids may come back as text: the commands compare and pass them as numbers.
  return { ...user, id: Number(user.id), role_id: user.role_id === null ? null : Number(user.role_id) };
}

/** The user record as the API answers it. */
export function userRecord(database: Database, id: number, executor: Executor): Promise<string> {
  return getRecord(database, users, id, { join: [] }, undefined, executor);
}

/**
 * A user can be acted on (changed, disabled, deleted, invited again, their
 * request decided) only by someone who holds every permission of their role:
 * otherwise a user manager could lock out, demote or take over an administrator.
 */
export function assertCanActOn(actor: Actor, user: UserRow): void {
  assertWithinRights(
    actor,
    user.role_permissions ?? [],
    `You cannot act on ${user.full_name}, whose role (${user.role_name}) holds more than yours`,
  );
}

/**
 * Refuses to demote, disable or delete the last active administrator. Such
 * changes queue on the Administrator role's row, so two of them cannot race
 * past each other. (Locking every administrator's row instead deadlocked two
 * administrators demoting each other, each holding the other's row.)
 */
export async function assertNotLastAdministrator(
  database: Database,
  userId: number,
  executor: Executor,
): Promise<void> {
  await database.rows(sql`select id from roles where name = ${ADMINISTRATOR} and built_in for no key update`, executor);
  const admins = await database.rows<{ id: number }>(
    sql`select u.id from users u join roles r on r.id = u.role_id
      where r.name = ${ADMINISTRATOR} and r.built_in and u.status = 'active'`,
    executor,
  );
  if (admins.length === 1 && Number(admins[0]?.id) === userId) {
    throw conflict(
      'This is the last active administrator; make someone else administrator first',
      undefined,
      'last_administrator',
    );
  }
}
