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
  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      options: '-c TimeZone=UTC',
    });
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
