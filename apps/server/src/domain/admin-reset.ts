import { randomBytes } from 'node:crypto';
import { ADMINISTRATOR } from '@data-platform/shared/permissions';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { setPassword } from './accounts.ts';

export type PasswordReset = { ok: true; email: string; password: string } | { ok: false; problem: string };

/**
 * A new one-time password for an active user (the first administrator when
 * no email is given), for when theirs is lost and no administrator can send
 * a reset mail: it replaces the old one and ends the user's sessions.
 */
export async function resetPasswordOf(database: Database, email?: string): Promise<PasswordReset> {
  const [user] = await database.rows<{ id: number; email: string; status: string }>(
    email
      ? sql`select id::int as id, email, status from users where lower(email) = lower(${email})`
      : sql`select u.id::int as id, u.email, u.status from users u join roles r on r.id = u.role_id
          where r.name = ${ADMINISTRATOR} and u.status = 'active' order by u.id limit 1`,
  );
  if (!user) return { ok: false, problem: email ? `No user has the email ${email}.` : 'No active administrator.' };
  if (user.status !== 'active') return { ok: false, problem: `${user.email} is ${user.status}, not active.` };
  const password = randomBytes(15).toString('base64url');
  await database.db.transaction(async (tx) => {
    await setPassword(database, user.id, password, tx);
    await database.rows(
      sql`update sessions set revoked_at = now() where user_id = ${user.id} and revoked_at is null`,
      tx,
    );
  });
  return { ok: true, email: user.email, password };
}
