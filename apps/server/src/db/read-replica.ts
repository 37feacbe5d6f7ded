import { parsePosition } from '@data-platform/shared/read-after';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Database, Db } from './client.ts';
import { errorChain, isConnectionError } from './errors.ts';

/**
 * A read replica of the primary (DATABASE_READ_URL, decision 0048): lists,
 * their totals, aggregates, search, the dashboard, the activity feed, fund
 * analytics and exports may read there; everything else reads
 * and writes the primary. A client that wrote reads its writes: each write's
 * answer carries the primary's WAL position (`Read-After`), the client sends
 * it back, and a read goes to the replica only once the replica has replayed
 * that far. A replica that cannot be reached, or lacks a table or column a
 * migration just made, is read around: the statement runs on the primary.
 */
export interface ReadReplica {
  /**
   * The replica as a Database for statements that only read; falls back to the primary statement by statement.
   * Never for the caches kept per Database (sessions, custom field definitions): they read the primary.
   */
  database: Database;
  /** Whether a read after `position` (none: any) may go to the replica now; asks the replica when it may lag. */
  mayRead(position: bigint | undefined): Promise<boolean>;
  close(): Promise<void>;
}

/** How long a replica that could not be reached is read around before it is tried again. */
const DOWN_MS = 5_000;
/** What a replica answers that has not replayed the primary's newest migration yet (an upgrade's first moments). */
const newerSchemaStates = new Set(['42703', '42P01']);

/** Named statements on the replica's own connections (client.ts's preparedStatements). */
interface ReplicaStatements {
  rows<T>(query: SQL): Promise<T[]>;
  text<T>(text: string, params: unknown[], named?: boolean): Promise<T[]>;
}

/**
 * The replica on `pool`, reading around itself onto `primary`. `pool` is the
 * replica's own (its `error` events heard by the caller).
 */
export function readReplica(
  pool: pg.Pool,
  primary: Database,
  prepared: ReplicaStatements,
  warn: (message: string) => void,
): ReadReplica {
  const db = drizzlePg({ client: pool }) as unknown as Db;
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= pool.end();
    return closing;
  };
  let downUntil = 0;
  let replayed = -1n;
  let asking: Promise<bigint> | undefined;

  /** Runs `read` on the replica, or on the primary when the replica cannot answer it. */
  const around = async <T>(read: () => Promise<T>, onPrimary: () => Promise<T>): Promise<T> => {
    if (Date.now() < downUntil) return onPrimary();
    try {
      return await read();
    } catch (error) {
      if (isConnectionError(error)) {
        if (Date.now() >= downUntil)
          warn(`The read replica cannot be reached; reading the primary for ${DOWN_MS / 1000} s`);
        downUntil = Date.now() + DOWN_MS;
        return onPrimary();
      }
      if (errorChain(error).some(({ code }) => typeof code === 'string' && newerSchemaStates.has(code)))
        return onPrimary();
      throw error;
    }
  };

  /** The position the replica has replayed (its own when it is no standby: a read URL naming the primary). */
  const askReplayed = async (): Promise<bigint> => {
    const { rows } = await pool.query<{ at: string | null }>(
      'select (case when pg_is_in_recovery() then pg_last_wal_replay_lsn() else pg_current_wal_lsn() end)::text as at',
    );
    const at = rows[0]?.at;
    return at ? parsePosition(at) : -1n;
  };

  const database: Database = {
    kind: 'postgres',
    db,
    rows: (query, executor, options = {}) =>
      executor !== undefined && executor !== db
        ? primary.rows(query, executor, options)
        : around(
            async () => {
              if (options.prepare) return prepared.rows(query);
              return ((await db.execute(query)) as unknown as { rows: never[] }).rows;
            },
            () => primary.rows(query, undefined, options),
          ),
    textRows: (text, params, options = {}) =>
      around(
        () => prepared.text(text, params, options.prepare === true),
        () => (primary.textRows as NonNullable<Database['textRows']>)(text, params, options),
      ),
    listen: (channel, onMessage, onState) => primary.listen(channel, onMessage, onState),
    caughtUp: () => primary.caughtUp(),
    copyCsv: () => Promise.reject(new Error('A read replica takes no writes')),
    ping: async () => {
      await pool.query('select 1');
    },
    close,
  };

  return {
    database,
    async mayRead(position) {
      if (Date.now() < downUntil) return false;
      if (position === undefined || position <= replayed) return true;
      try {
        asking ??= askReplayed().finally(() => {
          asking = undefined;
        });
        const at = await asking;
        if (at > replayed) replayed = at;
      } catch (error) {
        if (!isConnectionError(error)) throw error;
        downUntil = Date.now() + DOWN_MS;
        warn(`The read replica cannot be reached; reading the primary for ${DOWN_MS / 1000} s`);
        return false;
      }
      return position <= replayed;
    },
    close,
  };
}

/**
 * Where an export reads: the replica once it has replayed what the primary
 * held when the export started, which it waits up to `waitMs` for; the
 * primary otherwise. So an export holds every write made before it, and
 * never starts a COPY on a replica behind an upgrade's migration (it would
 * fail midway, where a list's statement is read around on the primary).
 */
export async function currentReader(database: Database, waitMs: number): Promise<Database> {
  const { replica, position } = database;
  if (!replica || !position) return database;
  const now = parsePosition(await position());
  for (const deadline = Date.now() + waitMs; ; ) {
    if (await replica.mayRead(now)) return replica.database;
    if (Date.now() >= deadline) return database;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
