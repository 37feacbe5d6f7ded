import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { users } from '@data-platform/shared/entities/users';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { searchWords } from '../db/search-words-schema.ts';
import { csvColumns, csvLine } from './csv.ts';
import { DEFAULT_SEED, generateDataset, type Row, type SeedCounts } from './generator.ts';
import type { ReferenceData } from './places.ts';
import { deleteSeedUsersSql } from './tables.ts';

/** Loads of at least this many companies drop and rebuild indexes and foreign keys around COPY. */
export const BULK_SCALE = 20_000;

/** The role generated users get: they change data but do not administer. */
const SEED_USER_ROLE = 'Editor';

export async function readReferenceData(database: Database): Promise<ReferenceData> {
  const [countries, states, currencies, [next], [role]] = await Promise.all([
    database.rows<ReferenceData['countries'][number]>(
      sql`select id::int as id, name, iso2, phone_code as "phoneCode", currency from countries order by id`,
    ),
    database.rows<ReferenceData['states'][number]>(
      sql`select id::int as id, country_id::int as "countryId", name, code from states order by id`,
    ),
    database.rows<{ code: string }>(sql`select code from currencies order by code`),
    database.rows<{ id: number }>(
      sql`select (coalesce(max(id), 0) + 1)::int as id from ${sql.identifier(users.table)}`,
    ),
    database.rows<{ id: number }>(sql`select id::int as id from roles where name = ${SEED_USER_ROLE}`),
  ]);
  return {
    countries,
    states,
    currencies: currencies.map((c) => c.code),
    firstUserId: next?.id ?? 1,
    userRoleId: role?.id ?? null,
  };
}

export interface SeedOptions {
  seed?: number;
  /**
   * For big loads: drop the secondary indexes and foreign keys of the
   * (empty) tables first, rebuild each table's indexes while the next tables
   * load, add the foreign keys back at the end (one checking pass each) and
   * VACUUM ANALYZE. Pointless for small loads.
   */
  bulk?: boolean;
  /** Rows per COPY. */
  chunkSize?: number;
  /** Stops loading between chunks; what was dropped is still put back before the error is thrown. */
  signal?: AbortSignal;
  /** Told when each table is ready (loaded, indexed, analyzed). */
  onTable?(timing: TableTiming): void;
}

export interface TableTiming {
  table: string;
  rows: number;
  /** generating, encoding and copying the rows */
  loadMs: number;
  /**
   * From the end of the table's load until its dropped indexes are rebuilt (or adding foreign keys
   * back, for the `foreign keys` line). Indexes build while later tables load, so this includes
   * waiting for earlier builds, and lines overlap in time.
   */
  indexMs: number;
  /** VACUUM ANALYZE or ANALYZE */
  analyzeMs: number;
}

/**
 * Generates the dataset for `counts` and loads it with COPY, table by table in
 * the generator's order (referenced tables first). The data tables must be
 * empty: ids are assigned by the generator (users after the accounts already
 * there), and each identity sequence is moved past them afterwards.
 */
export async function seedDatabase(
  database: Database,
  counts: SeedCounts,
  options: SeedOptions = {},
): Promise<TableTiming[]> {
  // Left over from an earlier seed whose data is gone; their addresses would collide.
  await database.db.execute(deleteSeedUsersSql());
  const reference = await readReferenceData(database);
  const streams = generateDataset(reference, counts, options.seed ?? DEFAULT_SEED);
  const timings: TableTiming[] = [];
  const report = (timing: TableTiming) => {
    timings.push(timing);
    options.onTable?.(timing);
  };
  const dropped = new Map<string, Dropped[]>();
  if (options.bulk) {
    // Only empty tables: users may already hold accounts.
    for (const { entity } of streams) {
      const [found] = await database.rows(sql`select 1 from ${sql.identifier(entity.table)} limit 1`);
      if (!found) dropped.set(entity.table, await dropIndexesAndForeignKeys(database, entity.table));
    }
  }
  // Index builds queue here, two at a time on PostgreSQL (a GIN build keeps one core busy).
  const builds = new Queue(database.kind === 'postgres' ? 2 : 1);
  const finishing: Promise<void>[] = [];
  let settled: PromiseSettledResult<void>[] = [];
  try {
    for (const { entity, rows } of streams) {
      const started = performance.now();
      const count = await copyRows(database, entity, rows(), options.chunkSize ?? 25_000, options.signal);
      const loadMs = performance.now() - started;
      const indexes = (dropped.get(entity.table) ?? []).filter((d) => d.kind === 'index');
      dropped.set(
        entity.table,
        (dropped.get(entity.table) ?? []).filter((d) => d.kind !== 'index'),
      );
      const finish = async () => {
        const indexStarted = performance.now();
        await Promise.all(indexes.map((index) => builds.run(() => restore(database, index))));
        const indexMs = performance.now() - indexStarted;
        const analyzeStarted = performance.now();
        await database.rows(
          sql`select setval(pg_get_serial_sequence(${entity.table}, 'id'), coalesce(max(id), 0) + 1, false)
            from ${sql.identifier(entity.table)}`,
        );
        // VACUUM also sets the visibility map, so that counts can use index-only scans right away.
        const table = sql.identifier(entity.table);
        await database.db.execute(options.bulk ? sql`vacuum (analyze) ${table}` : sql`analyze ${table}`);
        report({ table: entity.table, rows: count, loadMs, indexMs, analyzeMs: performance.now() - analyzeStarted });
      };
      // This table's indexes build while the next tables load.
      finishing.push(finish());
    }
  } finally {
    // Put everything back even when loading failed, so the schema stays whole.
    settled = await Promise.allSettled(finishing);
    const started = performance.now();
    // Foreign keys, and the indexes of tables a failure kept from loading.
    for (const items of dropped.values()) {
      for (const item of items) await restore(database, item);
    }
    if (options.bulk) {
      report({ table: 'foreign keys', rows: 0, loadMs: 0, indexMs: performance.now() - started, analyzeMs: 0 });
    }
  }
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  // The names' words, which the loaded tables' triggers added (db/search-words-schema.ts): without statistics the
  // planner reads the whole dictionary for every typo instead of its trigram index.
  await database.db.execute(sql`analyze ${searchWords}`);
  const order = streams.map((s) => s.entity.table);
  const rank = (t: TableTiming) => (order.includes(t.table) ? order.indexOf(t.table) : order.length);
  return timings.sort((a, b) => rank(a) - rank(b));
}

/** Copies rows in chunks; returns how many. */
async function copyRows(
  database: Database,
  entity: EntityDescription,
  rows: Iterable<Row>,
  chunkSize: number,
  signal?: AbortSignal,
): Promise<number> {
  const columns = csvColumns(entity);
  const names = columns.map((c) => c.name);
  let count = 0;
  // Rows become CSV lines as they are made (so they die young), and the next
  // chunk is generated while the database copies the previous one.
  let copying: Promise<void> = Promise.resolve();
  let lines: string[] = [];
  const flush = async () => {
    signal?.throwIfAborted();
    const csv = `${lines.join('\n')}\n`;
    lines = [];
    await copying;
    copying = database.copyCsv(entity.table, names, csv);
    // Reported when awaited; this keeps an early failure from going unhandled meanwhile.
    copying.catch(() => {});
  };
  for (const row of rows) {
    lines.push(csvLine(columns, row));
    count++;
    if (lines.length >= chunkSize) await flush();
  }
  if (lines.length > 0) await flush();
  await copying;
  return count;
}

/** Runs tasks at most `limit` at a time. */
class Queue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}

/** A dropped index or foreign key, and the statement that puts it back. */
interface Dropped {
  name: string;
  kind: 'index' | 'foreignKey';
  restore: string;
}

/**
 * Drops what slows COPY down row by row: the table's indexes that no
 * constraint owns (the primary key and unique constraints stay, so ids and
 * emails are still checked while loading) and its foreign keys (checked again,
 * in one pass each, when they are added back). Their definitions come from
 * the catalog, so nothing here is written by hand.
 */
async function dropIndexesAndForeignKeys(database: Database, table: string): Promise<Dropped[]> {
  const dropped = await database.rows<Dropped>(sql`
    select i.indexname as name, 'index' as kind, i.indexdef as restore
    from pg_indexes i
    where i.schemaname = current_schema() and i.tablename = ${table}
      and not exists (
        select 1 from pg_constraint c
        where c.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass
      )
    union all
    select c.conname, 'foreignKey',
      format('alter table %I add constraint %I %s', ${table}::text, c.conname, pg_get_constraintdef(c.oid))
    from pg_constraint c
    where c.conrelid = ${table}::regclass and c.contype = 'f'
    order by 2, 1`);
  for (const item of dropped) {
    await database.db.execute(
      item.kind === 'index'
        ? sql`drop index ${sql.identifier(item.name)}`
        : sql`alter table ${sql.identifier(table)} drop constraint ${sql.identifier(item.name)}`,
    );
  }
  return dropped;
}

/** Builds an index or adds a foreign key back (which checks every row once). */
async function restore(database: Database, item: Dropped): Promise<void> {
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
    // The statement is the catalog's own text for an object that existed a moment ago, not input.
    await tx.execute(sql.raw(item.restore));
  });
}

const seconds = (ms: number) => (ms / 1000).toFixed(1).padStart(7);

/** The header of the table `formatTiming` prints rows of. */
export const timingHeader = `${'table'.padEnd(20)} ${'rows'.padStart(10)} ${'load s'.padStart(7)} ${'index s'.padStart(7)} ${'analyze s'.padStart(9)} ${'load rows/s'.padStart(11)}`;

/** One line per table; rows/s is the load's rate (index builds overlap later loads). */
export function formatTiming(t: TableTiming): string {
  const rate = t.loadMs > 0 ? Math.round(t.rows / (t.loadMs / 1000)) : 0;
  return `${t.table.padEnd(20)} ${String(t.rows).padStart(10)} ${seconds(t.loadMs)} ${seconds(t.indexMs)} ${seconds(t.analyzeMs).padStart(9)} ${String(rate).padStart(11)}`;
}
