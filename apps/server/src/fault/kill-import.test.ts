import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  type ServerData,
  serverData,
  signInAsAdmin,
  startServerProcess,
  stopServerProcesses,
} from '../testing/server-process.ts';
import { contactsCsv, startUpload } from '../testing/upload.ts';

/**
 * kill -9 while an import runs, then a start on the same data: an import is
 * all or nothing, so none of the file's rows may be there. On PGlite (its
 * files in DATA_DIR) in the PGlite run, on PostgreSQL in the PostgreSQL run.
 */
const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
const ROWS = 3000;

let data: ServerData | undefined;
afterAll(async () => {
  await stopServerProcesses();
  await data?.remove();
});

/**
 * PostgreSQL: holds the file's last email in an open transaction, so the
 * import's insert of the last row waits for it with every row before it
 * written and not committed: the kill lands mid-write, not by luck.
 */
async function holdEmail(databaseUrl: string, email: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('begin');
  await client.query(`insert into contacts (first_name, last_name, email) values ('Lock', 'Holder', $1)`, [email]);
  return {
    /** Resolves once another session waits for a lock (the import, on the held email). */
    async waitForWaiter() {
      await vi.waitFor(
        async () => {
          const { rows } = await client.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
          );
          expect(rows[0]?.n).toBeGreaterThan(0);
        },
        { timeout: 60_000, interval: 20 },
      );
    },
    async release() {
      await client.query('rollback');
      await client.end();
    },
  };
}

describe(`kill -9 mid-import (${kind})`, () => {
  it('leaves none of the file’s rows, and the server starts again on the same data', { timeout: 120_000 }, async () => {
    data = await serverData(kind);
    const first = await startServerProcess(data, { LOG_LEVEL: 'warn' });
    const city = `Killville ${randomBytes(4).toString('hex')}`;
    const lastEmail = `last-${randomBytes(4).toString('hex')}@fault.example`;
    const held = data.databaseUrl ? await holdEmail(data.databaseUrl, lastEmail) : undefined;

    const upload = await startUpload(
      { url: first.url, token: await signInAsAdmin(first.url) },
      '/api/v1/contacts/import',
      { name: 'contacts.csv', content: contactsCsv(ROWS, city, lastEmail) },
    );
    // PGlite: the whole file has reached the server, which reads, checks and writes it in one go.
    await upload.sent;
    await held?.waitForWaiter();
    expect(await first.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    // No answer came: the import had not finished when the process was killed.
    await expect(upload.answer).rejects.toThrow();
    await held?.release();

    const second = await startServerProcess(data, { LOG_LEVEL: 'warn' });
    const token = await signInAsAdmin(second.url);
    const list = await fetch(
      `${second.url}/api/v1/contacts?pageSize=1&count=exact&filter[city][eq]=${encodeURIComponent(city)}`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expect(list.status).toBe(200);
    expect(((await list.json()) as { total: number }).total).toBe(0);

    // And the restarted server imports.
    const again = await startUpload({ url: second.url, token }, '/api/v1/contacts/import', {
      name: 'contacts.csv',
      content: contactsCsv(20, city),
    });
    expect((await again.answer).status).toBe(201);
  });
});
