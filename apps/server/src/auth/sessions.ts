import { isPermission, type Permission } from '@data-platform/shared/permissions';
import { sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import { ChangeFeed } from '../db/change-feed.ts';
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
  permissions: string[] | null;
  /** Milliseconds since the last use before this request. */
  idle_ms: number;
  /** Milliseconds until the absolute end. */
  remaining_ms: number;
  /** Whether this statement wrote the last use. */
  touched: boolean;
}

/** A signed-in session as this process holds it; times on this process's clock. */
interface CachedSession {
  actor: Actor;
  expiresAt: number;
  /** The last use this process knows of (another process may know a later one). */
  lastUsedAt: number;
}

/** Sessions held per process: beyond, the least recently used is dropped. */
const MAX_CACHED_SESSIONS = 10_000;

/**
 * Bearer token hash to actor, for the requests of sessions in use, so that a
 * request costs no statement for its session. Exact through the `auth`
 * notifications (migration 0006: a session revoked, ended or deleted, a
 * user's status or role, a role's permissions), and empty whenever they are
 * not heard. Idle and absolute limits are still decided on every request.
 */
class SessionCache {
  private readonly entries = new Map<string, CachedSession>();
  /**
   * Sessions this process revoked, maybe in a transaction not yet committed:
   * not kept again until their notification (sent at commit) arrives.
   */
  private readonly revoking = new Set<number>();
  readonly feed: ChangeFeed;

  constructor(database: Database) {
    this.feed = new ChangeFeed(
      database,
      'auth',
      (payload) => this.changed(payload),
      () => this.clear(),
    );
  }

  /** `session <id>`, `user <id>`, `role <id>` or `all`: drops the sessions it may concern. */
  private changed(payload: string): void {
    const [kind, id] = payload.split(' ');
    if (kind === 'session') {
      this.revoking.delete(Number(id));
      this.dropWhere((entry) => entry.actor.sessionId === Number(id));
    } else if (kind === 'user') this.dropWhere((entry) => entry.actor.userId === Number(id));
    else this.clear();
  }

  private clear(): void {
    this.entries.clear();
    this.revoking.clear();
  }

  private dropWhere(test: (entry: CachedSession) => boolean): void {
    for (const [hash, entry] of this.entries) if (test(entry)) this.entries.delete(hash);
  }

  get(hash: string): CachedSession | undefined {
    const entry = this.entries.get(hash);
    if (entry) {
      // Most recently used last: the first entry is the one to drop when full.
      this.entries.delete(hash);
      this.entries.set(hash, entry);
    }
    return entry;
  }

  keep(hash: string, entry: CachedSession, begun: number): void {
    if (!this.feed.mayKeep(begun) || this.revoking.has(entry.actor.sessionId as number)) return;
    if (this.entries.size >= MAX_CACHED_SESSIONS) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(hash, entry);
  }

  forget(hash: string): void {
    this.entries.delete(hash);
  }

  /** This process revoked these sessions: refused from the next request on, before their notification arrives. */
  revoked(sessionIds: readonly number[]): void {
    if (sessionIds.length === 0) return;
    this.feed.changedHere();
    if (this.revoking.size + sessionIds.length > MAX_CACHED_SESSIONS) this.revoking.clear();
    const ids = new Set(sessionIds);
    for (const id of ids) this.revoking.add(id);
    this.dropWhere((entry) => ids.has(entry.actor.sessionId as number));
  }
}

const caches = new WeakMap<Database, SessionCache>();

function cacheOf(database: Database): SessionCache {
  let cache = caches.get(database);
  if (!cache) {
    cache = new SessionCache(database);
    caches.set(database, cache);
  }
  return cache;
}

/** How long after its last write a session's last use is written again. */
const touchEveryMs = (config: Config) => Math.min(TOUCH_EVERY_MS, config.sessionIdleMs / 10);

/**
 * The actor behind a bearer token, or undefined when the token is unknown,
 * revoked, expired (absolute), idle too long, or its user is not active.
 *
 * A session this process used less than a touch interval ago answers from
 * the cache, without a statement: it cannot be idle (the idle limit is ten
 * touch intervals or more) and every change that would refuse it has been
 * notified. Otherwise one statement checks the session, and writes its last
 * use when that is older than the touch interval (so the idle limit, kept in
 * the database, is decided there for every process).
 */
export async function authenticate(database: Database, config: Config, token: string): Promise<Actor | undefined> {
  const hash = hashToken(token);
  const cache = cacheOf(database);
  const touchEvery = touchEveryMs(config);
  const cached = cache.feed.trusted ? cache.get(hash) : undefined;
  if (cached) {
    const now = Date.now();
    if (now >= cached.expiresAt) {
      cache.forget(hash);
      return undefined;
    }
    if (now - cached.lastUsedAt < touchEvery) return cached.actor;
  }
  const begun = cache.feed.begin();
  const [row] = await database.rows<SessionRow>(
    sql`with found as (
        select s.id, s.user_id, r.permissions, s.last_used_at, s.expires_at
        from sessions s
        join users u on u.id = s.user_id
        left join roles r on r.id = u.role_id
        where s.token_hash = ${hash} and s.revoked_at is null and s.expires_at > now()
          and s.last_used_at > now() - make_interval(secs => ${config.sessionIdleMs / 1000})
          and u.status = 'active'
      ), touched as (
        update sessions set last_used_at = now() from found
        where sessions.id = found.id and found.last_used_at < now() - make_interval(secs => ${touchEvery / 1000})
        returning sessions.id
      )
      select found.id, found.user_id, found.permissions,
        (extract(epoch from now() - found.last_used_at) * 1000)::bigint as idle_ms,
        (extract(epoch from found.expires_at - now()) * 1000)::bigint as remaining_ms,
        exists (select from touched) as touched
      from found`,
    undefined,
    { prepare: true },
  );
  if (!row) {
    cache.forget(hash);
    return undefined;
  }
  const permissions = (row.permissions ?? []).filter(isPermission) as Permission[];
  const actor: Actor = { userId: Number(row.user_id), permissions: new Set(permissions), sessionId: Number(row.id) };
  const now = Date.now();
  cache.keep(
    hash,
    {
      actor,
      expiresAt: now + Number(row.remaining_ms),
      lastUsedAt: row.touched ? now : now - Number(row.idle_ms),
    },
    begun,
  );
  return actor;
}

export async function revokeSession(database: Database, sessionId: number): Promise<void> {
  await database.rows(sql`update sessions set revoked_at = now() where id = ${sessionId} and revoked_at is null`);
  cacheOf(database).revoked([sessionId]);
}

/** Ends every session of a user (password reset, disable, delete), except `keep` when given. */
export async function revokeUserSessions(
  database: Database,
  userId: number,
  executor?: Executor,
  keep?: number,
): Promise<void> {
  const revoked = await database.rows<{ id: number }>(
    sql`update sessions set revoked_at = now()
      where user_id = ${userId} and revoked_at is null and id <> ${keep ?? 0}
      returning id`,
    executor,
  );
  cacheOf(database).revoked(revoked.map((row) => Number(row.id)));
}
