import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../testing/test-server.ts';
import type { Database } from './client.ts';

/**
 * The search-words trigger looks each new word of a statement up in the word
 * index (migrations 0021 and 0022), whatever the planner knows of the table:
 * planned as a sequential scan while the table was small or had no statistics
 * (a new database), the lookup read every word the same statement had just
 * written, and an import's batch of 5,000 names spent 0.3 s in it
 * (docs/decisions/0050).
 */
describe('the search-words trigger’s lookup', () => {
  let database: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ database, close } = await openTestDatabase());
  });
  afterAll(async () => close?.());

  interface Scans {
    seq_scan: number | string;
    idx_scan: number | string | null;
  }

  it('probes the word index for each new word even when the table looks empty to the planner', async () => {
    // What a new database looks like: no words, and statistics saying so.
    await database.rows(sql`truncate search_words`);
    await database.rows(sql`analyze search_words`);
    const read = async (tx: Parameters<typeof database.rows>[1]) => {
      // This backend's scans of the table not yet reported to the statistics (earlier statements' included).
      const [counted] = await database.rows<Scans>(
        sql`select seq_scan, idx_scan from pg_stat_xact_user_tables where relname = 'search_words'`,
        tx,
      );
      return { seq: Number(counted?.seq_scan ?? 0), idx: Number(counted?.idx_scan ?? 0) };
    };
    const [before, after] = await database.db.transaction(async (tx) => {
      const first = await read(tx);
      // One statement, 502 new words: "probe", 300 hashes and the numbers from 100 (shorter words are not kept).
      await database.rows(
        sql`insert into companies (name) select 'Probe ' || md5(g::text) || ' ' || g from generate_series(1, 300) g`,
        tx,
      );
      // The trigger turned sequential scans off for its own statement only: the transaction goes on with them.
      const [setting] = await database.rows<{ enable_seqscan: string }>(sql`show enable_seqscan`, tx);
      expect(setting?.enable_seqscan).toBe('on');
      return [first, await read(tx)];
    });
    expect(after.seq - before.seq).toBe(0);
    expect(after.idx - before.idx).toBe(502);
    // The words are stored, each once.
    const [stored] = await database.rows<{ words: number | string; distinct: number | string }>(
      sql`select count(*) as words, count(distinct word) as distinct from search_words`,
    );
    expect(Number(stored?.words)).toBe(502);
    expect(Number(stored?.distinct)).toBe(502);
  });
});
