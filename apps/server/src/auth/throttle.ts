import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';

/**
 * Counts events per key over a sliding window, to slow password guessing and
 * mail flooding (429 with Retry-After) without ever locking an account for
 * good: an event stops counting once the window has passed. The counts live
 * in the database (table throttle_counters), so that every server process
 * over it enforces one limit.
 *
 * Times are this process's clock (`now`), as they were when the counts were
 * in memory: replicas behind one load balancer keep their clocks together
 * (NTP); a skew between them moves a Retry-After by as much, never a count.
 */
export interface Limiter {
  /** Names the limiter's rows; unique among limiters. */
  name: string;
  /** Events allowed within the window. */
  limit: number;
  windowMs: number;
}

/** One key of one limiter, e.g. failed sign-ins of one address. */
export type Counted = readonly [limiter: Limiter, key: string];

/** Kept per key at most, whatever the limit (which only concurrent requests could overshoot). */
const MAX_EVENTS = 1_000;
/** Expired rows one recording deletes, so that keys seen once do not stay. */
const PRUNE_BATCH = 100;

const at = (now: number) => sql`${new Date(now).toISOString()}::timestamptz`;
const windowOf = (column: SQL) => sql`make_interval(secs => ${column} / 1000.0)`;

/** The counts asked about, as rows `q (limiter, key, lim, window_ms)`. */
function counted(counts: readonly Counted[]): SQL {
  const rows = counts.map(
    ([limiter, key]) => sql`(${limiter.name}::text, ${key}::text, ${limiter.limit}::int, ${limiter.windowMs}::bigint)`,
  );
  return sql`q (limiter, key, lim, window_ms) as (values ${sql.join(rows, sql`, `)})`;
}

/**
 * Seconds until the longest-held of `q`'s keys allows another event: the
 * `lim`-th latest event within the window leaves it then (at least 1); no
 * row when every key allows one.
 */
function waits(now: number): SQL {
  return sql`waits as (
    select greatest(1, ceil(extract(epoch from
      k.kept[cardinality(k.kept) - q.lim + 1] + ${windowOf(sql`q.window_ms`)} - ${at(now)})))::int as wait
    from q
    join throttle_counters c on c.limiter = q.limiter and c.key = q.key
    cross join lateral (
      select array_agg(t order by t) as kept from unnest(c.events) t where t > ${at(now)} - ${windowOf(sql`q.window_ms`)}
    ) k
    where cardinality(k.kept) >= q.lim
  )`;
}

/**
 * Adds an event at `now` to each of `q`'s keys (those `where` allows): a new
 * row, or the row's events within the window and this one. The window of a
 * key is its new row's `expires_at - events[1]`: `excluded` carries only the
 * table's columns.
 */
function recordings(now: number, where: SQL = sql`true`): SQL {
  const window = sql`(excluded.expires_at - excluded.events[1])`;
  return sql`recorded as (
    insert into throttle_counters as c (limiter, key, events, expires_at)
    select q.limiter, q.key, array[${at(now)}], ${at(now)} + ${windowOf(sql`q.window_ms`)} from q where ${where}
    on conflict (limiter, key) do update set
      events = array(
        select t from (
          select t from unnest(c.events || excluded.events) t
          where t > excluded.events[1] - ${window}
          order by t desc limit ${MAX_EVENTS}
        ) latest order by t
      ),
      expires_at = greatest(c.expires_at, excluded.expires_at)
    returning 1
  ), pruned as (
    delete from throttle_counters where ctid = any(array(
      select ctid from throttle_counters
      where expires_at < ${at(now)} and (limiter, key) not in (select limiter, key from q)
      limit ${PRUNE_BATCH} for update skip locked
    ))
    returning 1
  )`;
}

/** Seconds to wait before the next event under these keys (the longest of their waits), 0 when all allow one. */
export async function retryAfter(database: Database, counts: readonly Counted[], now = Date.now()): Promise<number> {
  const [row] = await database.rows<{ wait: number }>(
    sql`with ${counted(counts)}, ${waits(now)} select coalesce(max(wait), 0) as wait from waits`,
  );
  return Number(row?.wait ?? 0);
}

/** Counts an event under each of these keys. */
export async function record(database: Database, counts: readonly Counted[], now = Date.now()): Promise<void> {
  await database.rows(sql`with ${counted(counts)}, ${recordings(now)} select count(*) from recorded`);
}

/**
 * Checks and counts in one statement: when every key allows an event, it
 * is counted under each and 0 is answered; otherwise nothing is counted and
 * the seconds to wait are answered.
 */
export async function take(database: Database, counts: readonly Counted[], now = Date.now()): Promise<number> {
  const [row] = await database.rows<{ wait: number }>(
    sql`with ${counted(counts)}, ${waits(now)}, ${recordings(now, sql`not exists (select from waits)`)}
      select coalesce(max(wait), 0) as wait from waits`,
  );
  return Number(row?.wait ?? 0);
}

/** Forgets the events of one key (a success that ends a run of failures). */
export async function clear(database: Database, [limiter, key]: Counted): Promise<void> {
  await database.rows(sql`delete from throttle_counters where limiter = ${limiter.name} and key = ${key}`);
}
