import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { isConnectionError } from './errors.ts';
import { loadReferenceData } from './reference-data.ts';

export type DatabaseKind = 'pglite' | 'postgres';
export type Db = PgDatabase<PgQueryResultHKT>;

/** Anything that can run a statement: the database or a transaction. */
export type Executor = Pick<Db, 'execute'>;

export interface Database {
  kind: DatabaseKind;
  db: Db;
  /** Rows of a statement, the same shape on both drivers. */
  rows<T = Record<string, unknown>>(query: SQL, executor?: Executor): Promise<T[]>;
  /** Bulk load CSV text into a table's columns (COPY). */
  copyCsv(table: string, columns: string[], csv: string): Promise<void>;
  /** Throws when the database cannot answer a statement (health check). */
  ping(): Promise<void>;
  /** PGlite only: the whole data directory as a tarball, to open copies of it quickly (tests). */
  snapshot?(): Promise<Blob>;
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface OpenOptions {
  /** PostgreSQL connection string; without it PGlite is used. */
  url?: string;
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

/**
 * Opens PostgreSQL (when a URL is given) or the embedded PGlite, and brings
 * the schema up to date with the committed migrations. The one place that
 * knows which database it is, with bulk loading.
 */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  let database: Database;
  const log = options.log ?? silent;
  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      options: '-c TimeZone=UTC',
      // A database that does not answer (a host gone without a reset) fails the request instead of holding it.
      connectionTimeoutMillis: 10_000,
      keepAlive: true,
    });
    // A connection can die at any time (restart, failover, pg_terminate_backend,
    // an idle reaper). node-postgres then emits `error` on the client, and on the
    // pool for an idle one; unheard, that event ends the process. Heard, the pool
    // drops the dead connection and opens new ones as requests need them, and
    // the request that was using it fails with a connection error (answered 503).
    pool.on('connect', (client) =>
      client.on('error', (error) =>
        log.warn(`A database connection was lost (${describeError(error)}); new ones are opened as needed`),
      ),
    );
    pool.on('error', () => {
      // Already logged by the client's own listener above.
    });
    await waitForPostgres(pool, options.waitMs ?? 0, log);
    const db = drizzlePg({ client: pool }) as unknown as Db;
    await migratePg(drizzlePg({ client: pool }), { migrationsFolder });
    database = {
      kind: 'postgres',
      db,
      rows: (query, executor = db) => rowsOf(executor, query),
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
      close: () => pool.end(),
    };
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

export { sql };
