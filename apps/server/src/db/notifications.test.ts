import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../testing/test-server.ts';
import { LISTENER_APPLICATION_NAME, PostgresListener } from './notifications.ts';

/**
 * The listening connection's round trip (`caughtUp`), on which every request
 * on PostgreSQL waits before the caches answer it. PGlite has no listening
 * connection, so this file runs only with TEST_DATABASE_URL.
 */
const adminUrl = process.env.TEST_DATABASE_URL;

/** A database of this file's own: its listener is the only one there. */
let scratch: { url: string; drop: () => Promise<void> } | undefined;
let listener: PostgresListener;
let writer: pg.Client;
const channel = `caught_up_${randomBytes(4).toString('hex')}`;
const heard: string[] = [];

beforeAll(async () => {
  if (!adminUrl) return;
  scratch = await createScratchDatabase(adminUrl);
  const url = scratch.url;
  listener = new PostgresListener(url, { warn: () => {} });
  await new Promise<void>((resolve) => {
    listener.subscribe(channel, {
      onMessage: (payload) => heard.push(payload),
      onState: (listening) => listening && resolve(),
    });
  });
  writer = new pg.Client({ connectionString: url });
  await writer.connect();
});

afterAll(async () => {
  await writer?.end();
  await listener?.close();
  await scratch?.drop();
});

describe.skipIf(!adminUrl)('caughtUp', () => {
  it('resolves each of many overlapping calls only once what was committed before it has been heard', async () => {
    const late: string[] = [];
    const calls: Promise<void>[] = [];
    for (let i = 0; i < 300; i++) {
      const payload = String(i);
      await writer.query('select pg_notify($1, $2)', [channel, payload]);
      // Not awaited: the calls overlap the round trips already on their way.
      calls.push(
        listener.caughtUp().then(() => {
          if (!heard.includes(payload)) late.push(payload);
        }),
      );
    }
    await Promise.all(calls);
    expect(late).toEqual([]);
    expect(heard).toHaveLength(300);
  });

  it('settles when the connection is lost, and is exact again once it listens again', async () => {
    const admin = new pg.Client({ connectionString: scratch?.url });
    await admin.connect();
    try {
      const { rows } = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and application_name = $1`,
        [LISTENER_APPLICATION_NAME],
      );
      expect(rows).toHaveLength(1);
    } finally {
      await admin.end();
    }
    // Lost or not yet noticed: either way the call settles, and never rejects.
    await listener.caughtUp();
    await expect
      .poll(
        async () => {
          await writer.query('select pg_notify($1, $2)', [channel, 'again']);
          await listener.caughtUp();
          return heard.includes('again');
        },
        { timeout: 15_000, interval: 200 },
      )
      .toBe(true);
  });
});
