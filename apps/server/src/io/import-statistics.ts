import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { recordHistory } from '../db/history-schema.ts';
import { searchWords } from '../db/search-words-schema.ts';

/** Rows an import writes before the tables' statistics are first brought up to date. */
const FIRST_AFTER_ROWS = 1_000;
/** Past this many rows the planner's choices no longer change with the table's size: no more ANALYZE. */
const KNOWN_ENOUGH_ROWS = 100_000;

/**
 * Keeps the planner's statistics of the tables an import writes (its
 * entity's, the history entries', the search words') up with a job that
 * grows them from (nearly) empty: ANALYZE after its first 1,000 rows, then
 * each time it has written as many rows as the statistics knew, until they
 * know 100,000. Without it, statements planned while a table was empty or
 * never analyzed (a new database's first import; PGlite, which runs no
 * autovacuum) kept reading whole tables as they grew: 10,000 companies took
 * 1.7 s into a new PostgreSQL database and 0.8 s once it had statistics.
 * A handful of ANALYZEs of small tables, each a sample of at most 30,000
 * rows; it takes no lock that stops readers or writers.
 */
export class ImportStatistics {
  /** Rows the statistics of the entity's table knew at the last ANALYZE (-1: never analyzed); undefined until read. */
  private known: number | undefined;
  private writtenSince = 0;

  constructor(
    private readonly database: Database,
    private readonly entity: EntityDescription,
  ) {}

  /** Told after each committed batch of `rows` rows. */
  async wrote(rows: number): Promise<void> {
    this.known ??= await this.knownRows();
    if (this.known >= KNOWN_ENOUGH_ROWS) return;
    this.writtenSince += rows;
    if (this.writtenSince < Math.max(FIRST_AFTER_ROWS, this.known)) return;
    for (const table of [sql.identifier(this.entity.table), recordHistory, searchWords]) {
      await this.database.rows(sql`analyze ${table}`);
    }
    this.known = await this.knownRows();
    this.writtenSince = 0;
  }

  private async knownRows(): Promise<number> {
    const [row] = await this.database.rows<{ rows: number | string }>(
      sql`select reltuples::float8 as rows from pg_class where oid = ${this.entity.table}::regclass`,
    );
    return Number(row?.rows ?? -1);
  }
}
