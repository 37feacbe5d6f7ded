import { users } from '@data-platform/shared/entities/users';
import { parseGetQuery } from '@data-platform/shared/query/list-query';
import { sql } from 'drizzle-orm';
import { hashPassword, isCommonPassword, isPersonalPassword } from '../auth/passwords.ts';
import { getRecord } from '../crud/records.ts';
import type { Database, Executor } from '../db/client.ts';
import { invalid } from './errors.ts';

const meJoin = parseGetQuery(users, { join: 'role(name,permissions)' });

/** The signed-in user as the client sees it: the user, its role and the role's permissions. */
export async function currentUser(
  database: Database,
  userId: number,
  executor?: Executor,
): Promise<Record<string, unknown>> {
  return JSON.parse(await getRecord(database, users, userId, meJoin, undefined, executor));
}

/** Refuses passwords on the common list, and the user's email or the product's name, naming the field. */
export function assertAcceptablePassword(password: string, email: string, field = 'password'): void {
  if (isCommonPassword(password)) {
    throw invalid({ [field]: 'This password is too common; choose one that is harder to guess' });
  }
  if (isPersonalPassword(password, email)) {
    throw invalid({ [field]: 'This password is your email or the name of this application; choose another' });
  }
}

/** Stores the hash of the user's new password. */
export async function setPassword(database: Database, userId: number, password: string, executor?: Executor) {
  const passwordHash = await hashPassword(password);
  await database.rows(
    sql`insert into user_credentials (user_id, password_hash) values (${userId}, ${passwordHash})
      on conflict (user_id) do update set password_hash = excluded.password_hash, updated_at = now()`,
    executor,
  );
}
