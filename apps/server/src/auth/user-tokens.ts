import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.ts';
import { invalid } from '../domain/errors.ts';
import { hashToken, newToken } from './tokens.ts';

export type TokenPurpose = 'invitation' | 'passwordReset';

/**
 * A new single-use token for mailing; any earlier unused token of the same
 * purpose for this user stops working.
 */
export async function issueUserToken(
  database: Database,
  userId: number,
  purpose: TokenPurpose,
  ttlMs: number,
  executor?: Executor,
): Promise<string> {
  const token = newToken();
  await database.rows(
    sql`update user_tokens set used_at = now() where user_id = ${userId} and purpose = ${purpose} and used_at is null`,
    executor,
  );
  await database.rows(
    sql`insert into user_tokens (user_id, purpose, token_hash, expires_at)
      values (${userId}, ${purpose}, ${hashToken(token)}, ${new Date(Date.now() + ttlMs).toISOString()})`,
    executor,
  );
  return token;
}

/** Spends a token (once) and answers its user and their email, or 400 when it is unknown, used or expired. */
export async function consumeUserToken(
  database: Database,
  token: string,
  purpose: TokenPurpose,
  executor?: Executor,
): Promise<{ userId: number; email: string }> {
  const [row] = await database.rows<{ user_id: number; email: string }>(
    sql`update user_tokens t set used_at = now() from users u
      where u.id = t.user_id and t.token_hash = ${hashToken(token)} and t.purpose = ${purpose}
        and t.used_at is null and t.expires_at > now()
      returning t.user_id, u.email`,
    executor,
  );
  if (!row) throw invalid({ token: 'This link is not valid any more: it was used, replaced or has expired' });
  return { userId: Number(row.user_id), email: row.email };
}
