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

  it('probes by index again in the same connection, through the statement it planned before (migration 0025)', async () => {
    const [before, after] = await database.db.transaction(async (tx) => {
      const count = async () => {
        const [counted] = await database.rows<Scans>(
          sql`select seq_scan, idx_scan from pg_stat_xact_user_tables where relname = 'search_words'`,
          tx,
        );
        return { seq: Number(counted?.seq_scan ?? 0), idx: Number(counted?.idx_scan ?? 0) };
      };
      const first = await count();
      // Two one-row creates, as the API writes them: "probe" is stored, "again" and "anew" are not.
      await database.rows(sql`insert into companies (name) values ('Probe again')`, tx);
      await database.rows(sql`insert into companies (name) values ('Probe anew')`, tx);
      return [first, await count()];
    });
    expect(after.seq - before.seq).toBe(0);
    expect(after.idx - before.idx).toBe(4);
    const words = await database.rows<{ word: string }>(
      sql`select word from search_words where word in ('again', 'anew', 'probe') order by word`,
    );
    expect(words.map((w) => w.word)).toEqual(['again', 'anew', 'probe']);
  });

  it('reads every searched column through a statement written out, not one built on each write', async () => {
    // Each trigger's column (its argument) has its own statement in the function, which PL/pgSQL prepares once.
    const columns = await database.rows<{ col: string }>(
      sql`select distinct split_part(encode(tgargs, 'escape'), chr(92), 1) as col from pg_trigger
        where tgfoid::regproc::text = 'search_words_of'`,
    );
    expect(columns.length).toBeGreaterThan(0);
    const [fn] = await database.rows<{ src: string }>(
      sql`select prosrc as src from pg_proc where proname = 'search_words_of'`,
    );
    for (const { col } of columns) expect(fn?.src).toContain(`lower(n.${col})`);
    // A contact's full name and a firm's name go through them too.
    await database.rows(sql`insert into contacts (first_name, last_name) values ('Quillon', 'Zephyrine')`);
    await database.rows(sql`insert into firms (name) values ('Marbleton Partners')`);
    const words = await database.rows<{ word: string }>(
      sql`select distinct word from search_words where word in ('quillon', 'zephyrine', 'marbleton') order by word`,
    );
    expect(words.map((w) => w.word)).toEqual(['marbleton', 'quillon', 'zephyrine']);
  });
});
