import { isPermission, type Permission } from '@data-platform/shared/permissions';
import { sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import type { Actor } from './actor.ts';
import { hashToken, newToken } from './tokens.ts';

/** A session's last use is written at most once a minute (or a tenth of the idle limit), not on every request. */
const TOUCH_EVERY_MS = 60_000;

export interface SessionRequestInfo {
  ip: string;
  userAgent?: string;
}

/** Opens a session for a user and returns its bearer token (shown once, stored hashed). */
export async function createSession(
  database: Database,
  config: Config,
  userId: number,
  info: SessionRequestInfo,
  executor?: Executor,
): Promise<string> {
  const token = newToken();
  const expiresAt = new Date(Date.now() + config.sessionMaxMs).toISOString();
  await database.rows(
    sql`insert into sessions (user_id, token_hash, expires_at, ip, user_agent)
      values (${userId}, ${hashToken(token)}, ${expiresAt}, ${info.ip}, ${info.userAgent?.slice(0, 500) ?? null})`,
    executor,
  );
  await database.rows(sql`update users set last_sign_in_at = now() where id = ${userId}`, executor);
  return token;
}

interface SessionRow {
  id: number;
  user_id: number;
  idle_ms: number;
  permissions: string[] | null;
}

/**
 * The actor behind a bearer token, or undefined when the token is unknown,
 * revoked, expired (absolute), idle too long, or its user is not active.
 */
export async function authenticate(database: Database, config: Config, token: string): Promise<Actor | undefined> {
  const [row] = await database.rows<SessionRow>(
    sql`select s.id, s.user_id, r.permissions,
        (extract(epoch from now() - s.last_used_at) * 1000)::bigint as idle_ms
      from sessions s
      join users u on u.id = s.user_id
      left join roles r on r.id = u.role_id
      where s.token_hash = ${hashToken(token)} and s.revoked_at is null and s.expires_at > now()
        and s.last_used_at > now() - make_interval(secs => ${config.sessionIdleMs / 1000})
        and u.status = 'active'`,
  );
  if (!row) return undefined;
  if (Number(row.idle_ms) > Math.min(TOUCH_EVERY_MS, config.sessionIdleMs / 10)) {
    await database.rows(sql`update sessions set last_used_at = now() where id = ${row.id}`);
  }
  const permissions = (row.permissions ?? []).filter(isPermission) as Permission[];
  return { userId: Number(row.user_id), permissions: new Set(permissions), sessionId: Number(row.id) };
}

export async function revokeSession(database: Database, sessionId: number): Promise<void> {
  await database.rows(sql`update sessions set revoked_at = now() where id = ${sessionId} and revoked_at is null`);
}

/** Ends every session of a user (password reset, disable, delete), except `keep` when given. */
export async function revokeUserSessions(
  database: Database,
  userId: number,
  executor?: Executor,
  keep?: number,
): Promise<void> {
  await database.rows(
    sql`update sessions set revoked_at = now()
      where user_id = ${userId} and revoked_at is null and id <> ${keep ?? 0}`,
    executor,
  );
}
