import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { CONNECTION_OPTIONS } from './connection-options.ts';
import { isConnectionError } from './errors.ts';
import { PostgresListener } from './notifications.ts';
import { type ReadReplica, readReplica } from './read-replica.ts';
import { loadReferenceData } from './reference-data.ts';

export type DatabaseKind = 'pglite' | 'postgres';
export type Db = PgDatabase<PgQueryResultHKT>;

/** Anything that can run a statement: the database or a transaction. */
export type Executor = Pick<Db, 'execute'>;

export interface RowsOptions {
  /**
   * Run as a named (prepared) statement: PostgreSQL plans it once per
   * connection and then reuses the plan (a generic one, after five runs, when
   * it costs no more than the custom ones). For the statement shapes that
   * run on most requests and whose right plan does not depend on the values
   * bound (the session lookup, a get by id, a list without filter or search:
   * docs/decisions/0021); only with the default executor, not in a
   * transaction. Does nothing on PGlite. `'write'`: a create's or an
   * update's statement (docs/decisions/0051), named from a budget of its
   * own, so that many shapes of writes never leave a list unnamed.
   */
  prepare?: boolean | 'write';
}

export interface Database {
  kind: DatabaseKind;
  db: Db;
  /** Rows of a statement, the same shape on both drivers. */
  rows<T = Record<string, unknown>>(query: SQL, executor?: Executor, options?: RowsOptions): Promise<T[]>;
  /**
   * `rows(..., options)` of a statement whose text is made already (its
   * `$1`... bound to `params`): kept by the caller, the same string each
   * time, so that neither drizzle's text building nor (prepared, on
   * PostgreSQL) the lookup of its statement's name by a new string's hash is
   * paid again. Optional so that a test can take it away and compare.
   */
  textRows?<T = Record<string, unknown>>(text: string, params: unknown[], options?: RowsOptions): Promise<T[]>;
  /**
   * Hears the notifications on `channel` (pg_notify, delivered when the
   * writing transaction commits). `onState(true)` once they are heard, again
   * after each reconnection; `onState(false)` when the listening connection
   * is lost: notifications may be missed until the next `true`. Returns the
   * function that stops listening.
   */
  listen(channel: string, onMessage: (payload: string) => void, onState: (listening: boolean) => void): () => void;
  /**
   * Resolves once every notification committed before the call has reached
   * this process's listeners: after a write that changes what a cache holds,
   * so that this process's next request cannot be answered from the cache.
   */
  caughtUp(): Promise<void>;
  /** Bulk load CSV text into a table's columns (COPY). */
  copyCsv(table: string, columns: string[], csv: string): Promise<void>;
  /** Throws when the database cannot answer a statement (health check). */
  ping(): Promise<void>;
  /** PostgreSQL with DATABASE_READ_URL: the read replica lists, totals, aggregates and exports may read (read-replica.ts). */
  replica?: ReadReplica;
  /** The primary's WAL position now: a client that wrote reads on the replica once it has replayed this far. */
  position?(): Promise<string>;
  /** PGlite only: the whole data directory as a tarball, to open copies of it quickly (tests). */
  snapshot?(): Promise<Blob>;
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface OpenOptions {
  /** PostgreSQL connection string; without it PGlite is used. */
  url?: string;
  /** PostgreSQL: a read replica of `url`'s database (DATABASE_READ_URL). */
  readUrl?: string;
  /** PGlite data directory; without it PGlite keeps everything in memory. */
  dataDir?: string;
  /** PGlite: start from this snapshot (see Database.snapshot) instead of an empty cluster. */
  loadDataDir?: Blob;
  poolSize?: number;
  /**
   * PostgreSQL: how long to keep trying to reach a database that is not up
   * yet (started beside the app, restarting) before giving up; 0 gives up at once.
   */
  waitMs?: number;
  /** Told of connections lost and of waiting for the database. */
  log?: DatabaseLog;
}

export interface DatabaseLog {
  warn(message: string): void;
}

const silent: DatabaseLog = { warn() {} };

/** What went wrong, in one line: `ECONNREFUSED`, `57P01 terminating connection ...`. */
function describeError(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return [code, message].filter((part) => typeof part === 'string' && part).join(' ') || String(error);
}

/**
 * A pool on `url`. A connection can die at any time (restart, failover,
 * pg_terminate_backend, an idle reaper). node-postgres then emits `error` on
 * the client, and on the pool for an idle one; unheard, that event ends the
 * process. Heard, the pool drops the dead connection and opens new ones as
 * requests need them, and the request that was using it fails with a
 * connection error (answered 503, or read on the primary for a replica).
 */
function openPool(url: string, size: number | undefined, log: DatabaseLog, what: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: size ?? 10,
    options: CONNECTION_OPTIONS,
    // A database that does not answer (a host gone without a reset) fails the request instead of holding it.
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
  });
  pool.on('connect', (client) =>
    client.on('error', (error) =>
      log.warn(`${what} connection was lost (${describeError(error)}); new ones are opened as needed`),
    ),
  );
  pool.on('error', () => {
    // Already logged by the client's own listener above.
  });
  return pool;
}

/**
 * Waits for PostgreSQL to accept a connection, trying again with a growing
 * delay while the failure is a connection failure and time remains; any other
 * failure (a wrong password, no such database) is thrown at once.
 */
async function waitForPostgres(pool: pg.Pool, waitMs: number, log: DatabaseLog): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    try {
      await pool.query('select 1');
      return;
    } catch (error) {
      const delay = Math.min(250 * 2 ** attempt, 5_000);
      if (!isConnectionError(error)) throw error;
      if (Date.now() + delay > deadline) {
        throw new Error(`The database could not be reached within ${waitMs} ms: ${describeError(error)}`, {
          cause: error,
        });
      }
      log.warn(`The database cannot be reached yet (${describeError(error)}); trying again in ${delay} ms`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

async function rowsOf<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Types drizzle's node-postgres driver leaves as text (dates, times, intervals and their arrays): the same rows either way. */
const textTypes = new Set([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1115,
  1182,
  1185,
  1187,
  1231,
]);
/** The same types as text on PGlite, as drizzle's PGlite driver reads them. */
const pgliteTextTypes = { parsers: Object.fromEntries([...textTypes].map((oid) => [oid, (value: string) => value])) };
const drizzleTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    textTypes.has(oid) ? (value: string) => value : pg.types.getTypeParser(oid, format),
} as pg.CustomTypesConfig;

/**
 * Distinct statement names one process gives out, to reads and to writes
 * apart; statements beyond run unnamed (each connection keeps every name it
 * prepared).
 */
const MAX_PREPARED = { read: 200, write: 100 } as const;

/**
 * Named statements on node-postgres: the name is a hash of the SQL text, so
 * the same text always gets the same name, and each pooled connection
 * prepares it on first use.
 */
function preparedStatements(pool: pg.Pool) {
  const dialect = new PgDialect();
  const names = new Map<string, string>();
  const given = { read: 0, write: 0 };
  const nameOf = (text: string, kind: 'read' | 'write'): string | undefined => {
    const known = names.get(text);
    if (known || given[kind] >= MAX_PREPARED[kind]) return known;
    const name = `dp_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
    given[kind]++;
    return name;
  };
  const run = async <T>(text: string, params: unknown[], named: RowsOptions['prepare'] = true): Promise<T[]> => {
    const name = named ? nameOf(text, named === 'write' ? 'write' : 'read') : undefined;
    const result = await pool.query({ name, text, values: params, types: drizzleTypes });
    return result.rows as T[];
  };
  return {
    rows: <T>(query: SQL, kind: RowsOptions['prepare'] = true): Promise<T[]> => {
      const { sql: text, params } = dialect.sqlToQuery(query);
      return run<T>(text, params, kind);
    },
    text: run,
  };
}

/**
 * Opens PostgreSQL (when a URL is given) or the embedded PGlite, and brings
 * the schema up to date with the committed migrations. The one place that
 * knows which database it is, with bulk loading.
 */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  let database: Database;
  const log = options.log ?? silent;
  if (options.url) {
    const pool = openPool(options.url, options.poolSize, log, 'A database');
    await waitForPostgres(pool, options.waitMs ?? 0, log);
    const db = drizzlePg({ client: pool }) as unknown as Db;
    await migratePg(drizzlePg({ client: pool }), { migrationsFolder });
    const prepared = preparedStatements(pool);
    const listener = new PostgresListener(options.url, log);
    database = {
      kind: 'postgres',
      db,
      rows: (query, executor = db, rowsOptions = {}) =>
        rowsOptions.prepare && executor === db ? prepared.rows(query, rowsOptions.prepare) : rowsOf(executor, query),
      textRows: (text, params, textOptions = {}) => prepared.text(text, params, textOptions.prepare ?? false),
      listen: (channel, onMessage, onState) => listener.subscribe(channel, { onMessage, onState }),
      caughtUp: () => listener.caughtUp(),
      async copyCsv(table, columns, csv) {
        const client = await pool.connect();
        try {
          const { from } = await import('pg-copy-streams');
          const stream = client.query(from(copyStatement(table, columns, 'STDIN')));
          await new Promise<void>((resolve, reject) => {
            stream.on('error', reject);
            stream.on('finish', resolve);
            stream.end(csv);
          });
        } finally {
          client.release();
        }
      },
      async ping() {
        await pool.query('select 1');
      },
      async position() {
        const { rows } = await pool.query<{ at: string }>('select pg_current_wal_insert_lsn()::text as at');
        return (rows[0] as { at: string }).at;
      },
      async close() {
        await listener.close();
        await replica?.close();
        await pool.end();
      },
    };
    // Not waited for: a replica that cannot be reached yet is read around until it can (read-replica.ts).
    const replicaPool = options.readUrl
      ? openPool(options.readUrl, options.poolSize, log, 'A read replica')
      : undefined;
    const replica = replicaPool
      ? readReplica(replicaPool, database, preparedStatements(replicaPool), (message) => log.warn(message))
      : undefined;
    database.replica = replica;
  } else {
    if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
    const client = await PGlite.create(options.dataDir, { extensions: { pg_trgm }, loadDataDir: options.loadDataDir });
    await client.exec("SET TIME ZONE 'UTC'");
    const db = drizzlePglite({ client }) as unknown as Db;
    await migratePglite(drizzlePglite({ client }), { migrationsFolder });
    database = {
      kind: 'pglite',
      db,
      rows: (query, executor = db) => rowsOf(executor, query),
      // One connection: nothing is named, every statement is planned for its values.
      textRows: async <T>(text: string, params: unknown[]) =>
        (await client.query<T>(text, params, pgliteTextTypes)).rows,
      // One process, one connection: a notification is delivered as its transaction commits, and never lost.
      listen(channel, onMessage, onState) {
        let stopped = false;
        let stop: (() => Promise<void>) | undefined;
        void client.listen(channel, onMessage).then((unlisten) => {
          if (stopped) return unlisten();
          stop = unlisten;
          onState(true);
        });
        return () => {
          stopped = true;
          void stop?.().catch(() => {});
        };
      },
      caughtUp: async () => {},
      async copyCsv(table, columns, csv) {
        await client.query(copyStatement(table, columns, "'/dev/blob'"), [], { blob: new Blob([csv]) });
      },
      async ping() {
        await client.query('select 1');
      },
      snapshot: () => client.dumpDataDir('none'),
      close: () => client.close(),
    };
  }
  await loadReferenceData(database);
  return database;
}

function copyStatement(table: string, columns: string[], source: string): string {
  const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
  return `COPY ${ident(table)} (${columns.map(ident).join(', ')}) FROM ${source} WITH (FORMAT csv)`;
}

/**
 * A json or jsonb value as a statement answers it: the drivers parse json columns, but a value that reached the
 * answer as text (a cast, EXPLAIN's output, a cursor built as text) is still its JSON text.
 */
export function jsonValue<T>(value: T | string): T {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

export { sql };
