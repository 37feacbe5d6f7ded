import path from 'node:path';
import { companies } from '@data-platform/shared/entities/companies';
import { contacts } from '@data-platform/shared/entities/contacts';
import { deals } from '@data-platform/shared/entities/deals';
import { firms } from '@data-platform/shared/entities/firms';
import { funds } from '@data-platform/shared/entities/funds';
import { investors } from '@data-platform/shared/entities/investors';
import { notes } from '@data-platform/shared/entities/notes';
import { ADMINISTRATOR } from '@data-platform/shared/permissions';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { hashPassword } from '../src/auth/passwords.ts';
import { configFromEnv } from '../src/config.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { bootstrapAccounts } from '../src/domain/bootstrap.ts';
import { countsForScale } from '../src/seed/generator.ts';
import { BULK_SCALE, formatTiming, seedDatabase, type TableTiming, timingHeader } from '../src/seed/load.ts';
import { tablesWithRows, truncateData } from '../src/seed/tables.ts';

/** Where the benchmark's data lives and how the server is pointed at it. */
export interface BenchTarget {
  kind: 'postgres' | 'pglite';
  /** A name for results files: `postgres` or `pglite`. */
  label: string;
  /** DATABASE_URL for the server, when PostgreSQL. */
  url?: string;
  /** DATA_DIR for the server (PGlite keeps its data under `${dataDir}/pglite`). */
  dataDir: string;
}

/**
 * A database of its own for each scale: `dp_bench_<N>` on the PostgreSQL
 * server of DATABASE_URL (created when missing), else PGlite under
 * `.bench-data/pglite-<N>`.
 */
export async function benchTarget(scale: number, databaseUrl: string | undefined): Promise<BenchTarget> {
  const benchData = path.resolve(import.meta.dirname, '..', '.bench-data');
  if (!databaseUrl) return { kind: 'pglite', label: 'pglite', dataDir: path.join(benchData, `pglite-${scale}`) };
  return {
    kind: 'postgres',
    label: 'postgres',
    url: await ensureDatabase(databaseUrl, `dp_bench_${scale}`),
    dataDir: path.join(benchData, `postgres-${scale}`),
  };
}

/** The database `name` on the PostgreSQL server of `serverUrl`, created when missing: its URL. */
export async function ensureDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await admin.query(`create database ${pg.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export function openTarget(target: BenchTarget): Promise<Database> {
  return openDatabase({ url: target.url, dataDir: path.join(target.dataDir, 'pglite'), poolSize: 4 });
}

/** The bench signs in as this administrator, made in the bench database only. */
export const benchAccount = { email: 'bench@bench.example', password: 'bench passphrase, not a secret' };

/**
 * Built-in roles as the server's first start makes them, and the bench's own
 * administrator (created or given back its password), so that the bench can
 * sign in whatever else the database holds.
 */
export async function ensureBenchAccount(
  database: Database,
  dataDir: string,
  account: { email: string; password: string } = benchAccount,
): Promise<void> {
  await bootstrapAccounts(database, configFromEnv({ DATA_DIR: dataDir, ADMIN_PASSWORD: account.password }));
  const passwordHash = await hashPassword(account.password);
  await database.db.transaction(async (tx) => {
    const [user] = await database.rows<{ id: number }>(
      sql`insert into users (email, first_name, last_name, status, role_id)
        select ${account.email}, 'Bench', 'Runner', 'active', id from roles where name = ${ADMINISTRATOR}
        on conflict (email) do update set status = 'active', role_id = excluded.role_id
        returning id::int as id`,
      tx,
    );
    if (!user) throw new Error(`No ${ADMINISTRATOR} role`);
    await database.rows(
      sql`insert into user_credentials (user_id, password_hash) values (${user.id}, ${passwordHash})
        on conflict (user_id) do update set password_hash = excluded.password_hash`,
      tx,
    );
  });
}

/** True when the data tables hold exactly the records a seed at this scale makes. */
async function seededAt(database: Database, scale: number): Promise<boolean> {
  const counts = countsForScale(scale);
  const expected: Record<string, number> = {
    [firms.table]: counts.firms,
    [funds.table]: counts.funds,
    [companies.table]: counts.companies,
    [contacts.table]: counts.contacts,
    [deals.table]: counts.deals,
    [investors.table]: counts.investors,
    [notes.table]: counts.notes,
  };
  const rows = await database.rows<{ name: string; n: number }>(
    sql.join(
      Object.keys(expected).map(
        (table) => sql`select ${table}::text as name, count(*)::int as n from ${sql.identifier(table)}`,
      ),
      sql` union all `,
    ),
  );
  return rows.every((r) => r.n === expected[r.name]);
}

/**
 * Makes sure the database holds a seed at `scale`, reusing one that does.
 * Companies a previous run created are deleted and versions put back to 1
 * first, so that runs start from the same data.
 */
export async function ensureSeeded(
  database: Database,
  scale: number,
  log: (line: string) => void,
): Promise<{ seconds: number; tables: TableTiming[] } | null> {
  const table = sql.identifier(companies.table);
  const deleted = await database.rows(sql`delete from ${table} where id > ${scale} returning id`);
  const reset = await database.rows(sql`update ${table} set version = 1 where version <> 1 returning id`);
  if (deleted.length + reset.length > 0) {
    // Also empties the trigram indexes' pending lists, which every search would otherwise read through.
    log(
      `Vacuuming ${companies.table} after ${deleted.length} created and ${reset.length} updated rows of an earlier run`,
    );
    await database.db.execute(sql`vacuum (analyze) ${table}`);
  }
  if (await seededAt(database, scale)) {
    log(`Reusing the ${database.kind} database seeded at scale ${scale}`);
    const dead = database.kind === 'postgres' ? await deadRows(database) : [];
    if (dead.length > 0) {
      log(`Vacuuming ${dead.map((t) => t.table).join(', ')}: more than a tenth of their rows are dead`);
      for (const { table: name } of dead) await database.db.execute(sql`vacuum (analyze) ${sql.identifier(name)}`);
      await warnOfDeadRows(database, log);
    }
    return null;
  }
  const filled = await tablesWithRows(database);
  if (filled.length > 0) {
    log(`The ${database.kind} bench database holds another dataset (${filled.join(', ')}): emptying it`);
    await truncateData(database);
  }
  log(`Seeding ${database.kind} at scale ${scale}`);
  log(timingHeader);
  const started = performance.now();
  const tables = await seedDatabase(database, countsForScale(scale), {
    bulk: scale >= BULK_SCALE,
    onTable: (t) => log(formatTiming(t)),
  });
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  log(`Seeded ${tables.reduce((sum, t) => sum + t.rows, 0)} rows in ${seconds} s`);
  // Until a vacuum has marked the new rows' pages, the first reads of each page write it back (hint bits) and
  // scans cannot skip the table: at 1,000,000 companies the runs right after a seed measured creates at a third,
  // and page 1000 at a tenth, of a run after this vacuum.
  const vacuumStarted = performance.now();
  await database.db.execute(sql`vacuum (freeze, analyze)`);
  log(`Vacuumed in ${Math.round((performance.now() - vacuumStarted) / 100) / 10} s`);
  if (database.kind === 'postgres') await warnOfDeadRows(database, log);
  return { seconds, tables };
}

/**
 * Dead rows VACUUM left in the bench's tables (more than a tenth of the live
 * ones in any table): a snapshot older than the seed, held by a transaction
 * open elsewhere, stops VACUUM from removing them. Every scan then reads them
 * too: a run in session 17 found the seed's million updated companies still
 * dead, and page 1000 at a quarter of its speed, search at three quarters.
 */
async function deadRows(database: Database): Promise<{ table: string; dead: number }[]> {
  const found = await database.rows<{ relname: string; n_dead_tup: number | string }>(
    sql`select relname, n_dead_tup from pg_stat_user_tables
      where schemaname = 'public' and n_dead_tup > n_live_tup / 10 and n_dead_tup > 1000 order by relname`,
  );
  return found.map((row) => ({ table: row.relname, dead: Number(row.n_dead_tup) }));
}

async function warnOfDeadRows(database: Database, log: (line: string) => void): Promise<void> {
  const dead = await deadRows(database);
  if (dead.length === 0) return;
  log(
    `WARNING: dead rows could not be vacuumed away (${dead.map((t) => `${t.table} ${t.dead}`).join(', ')}): a ` +
      `transaction open elsewhere on this PostgreSQL holds an older snapshot (see pg_stat_activity's backend_xmin); ` +
      `the figures of this run read them too`,
  );
}
