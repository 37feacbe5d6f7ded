import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import type { ReadReplica } from '../db/read-replica.ts';
import { importAll } from '../testing/import-jobs.ts';
import { type ReplicaPair, startReplicaPair } from '../testing/replica-pair.ts';
import { type ServerProcess, signInAsAdmin, startServerProcess } from '../testing/server-process.ts';

/**
 * A server on a primary with a streaming read replica (DATABASE_READ_URL,
 * decision 0048), both real PostgreSQL clusters of their own
 * (testing/replica-pair.ts). The replica's replay is paused to make it lag:
 * what a list then answers shows where it was read.
 */
const postgres = Boolean(process.env.TEST_DATABASE_URL);

interface SummariesAnswer {
  counts: Record<string, { total: number; totalExact: boolean }>;
}

let pair: ReplicaPair;
let dataDir: string;
let server: ServerProcess & { url: string };
let token: string;

beforeAll(async () => {
  if (!postgres) return;
  pair = await startReplicaPair();
  dataDir = await mkdtemp(path.join(tmpdir(), 'dp-replica-'));
  server = await startServerProcess(
    { dataDir, databaseUrl: pair.primaryUrl },
    { DATABASE_READ_URL: pair.replicaUrl, LOG_REQUESTS: 'false' },
  );
  token = await signInAsAdmin(server.url);
}, 120_000);

afterAll(async () => {
  await server?.stop('SIGTERM');
  await pair?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const send = (route: string, init: RequestInit = {}) => {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${token}`);
  return fetch(`${server.url}${route}`, { ...init, headers });
};
const create = async (name: string) => {
  const answer = await send('/api/v1/companies', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(answer.status).toBe(201);
  return { id: ((await answer.json()) as { id: number }).id, position: answer.headers.get('read-after') };
};
/** The names a list of companies called `name` answers, read after `position` when given. */
const namesListed = async (name: string, position?: string | null, select = 'name') => {
  const answer = await send(`/api/v1/companies?filter[name][eq]=${encodeURIComponent(name)}&select=${select}`, {
    headers: position ? { 'read-after': position } : {},
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: { name: string }[] }).data.map((row) => row.name);
};

/** Runs `check` with the replica's replay paused (it lags whatever is written meanwhile), then lets it go on. */
async function whileLagging(check: () => Promise<void>): Promise<void> {
  await pair.caughtUp();
  await pair.pauseReplay();
  try {
    await check();
  } finally {
    await pair.resumeReplay();
  }
}

describe.skipIf(!postgres)('a read replica (PostgreSQL)', () => {
  it('answers lists from the replica, and a client its own writes, from the primary while the replica lags', async () => {
    await whileLagging(async () => {
      const { id, position } = await create('Lagging Ltd');
      expect(position).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
      // Read on the paused replica: not there yet. With the write's position: read on the primary.
      expect(await namesListed('Lagging Ltd')).toEqual([]);
      expect(await namesListed('Lagging Ltd', position)).toEqual(['Lagging Ltd']);
      // A get by id is always the primary's (a form about to be saved needs the current version).
      expect((await send(`/api/v1/companies/${id}`)).status).toBe(200);
      // The search box and a record page's related totals read the replica too.
      const found = async (headers: Record<string, string>) =>
        ((await (await send('/api/v1/search?q=Lagging', { headers })).json()) as { groups: unknown[] }).groups.length;
      expect(await found({})).toBe(0);
      expect(await found({ 'read-after': position as string })).toBe(1);
      const totals = (headers: Record<string, string>) =>
        send(`/api/v1/companies/${id}/contacts/totals`, { headers }).then((answer) => answer.status);
      expect(await totals({})).toBe(404);
      expect(await totals({ 'read-after': position as string })).toBe(200);
      // An export holds every write made before it: it waits for the replica, then reads the primary.
      const exported = await send('/api/v1/companies/export?filter[name][eq]=Lagging%20Ltd&select=name');
      expect(exported.status).toBe(200);
      expect(await exported.text()).toContain('Lagging Ltd');
    });
    await pair.caughtUp();
    expect(await namesListed('Lagging Ltd')).toEqual(['Lagging Ltd']);
  });

  it('answers the home dashboard, the activity feed and fund analytics from the replica, and a client its own writes', async () => {
    await whileLagging(async () => {
      const made = await send('/api/v1/funds', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Lagging Fund', currency: 'EUR' }),
      });
      expect(made.status).toBe(201);
      const { id } = (await made.json()) as { id: number };
      const after = { 'read-after': made.headers.get('read-after') as string };
      const fundsCounted = async (headers: Record<string, string>) =>
        ((await (await send('/api/v1/configs/summaries', { headers })).json()) as SummariesAnswer).counts.funds?.total;
      expect(await fundsCounted(after)).toBe(((await fundsCounted({})) as number) + 1);
      const activity = async (headers: Record<string, string>) =>
        JSON.stringify(await (await send('/api/v1/activity?limit=5', { headers })).json());
      expect(await activity({})).not.toContain('Lagging Fund');
      expect(await activity(after)).toContain('Lagging Fund');
      expect((await send(`/api/v1/funds/${id}/metrics`)).status).toBe(404);
      expect((await send(`/api/v1/funds/${id}/metrics`, { headers: after })).status).toBe(200);
      const compared = async (headers: Record<string, string>) =>
        JSON.stringify(await (await send('/api/v1/funds/comparison', { headers })).json());
      expect(await compared({})).not.toContain('Lagging Fund');
      expect(await compared(after)).toContain('Lagging Fund');
    });
  });

  it("reads a column the replica has not replayed yet (an upgrade's migration) on the primary", async () => {
    const database = await openDatabase({ url: pair.primaryUrl, readUrl: pair.replicaUrl, poolSize: 1 });
    try {
      await whileLagging(async () => {
        await database.rows(sql`alter table companies add column if not exists upgraded_in text default 'v2'`);
        const reader = (database.replica as ReadReplica).database;
        const [row] = await reader.rows<{ upgraded_in: string }>(sql`select upgraded_in from companies limit 1`);
        expect(row?.upgraded_in).toBe('v2');
        // Any other failure is the statement's own, not read around.
        await expect(reader.rows(sql`select 1 / 0`)).rejects.toMatchObject({ cause: { code: '22012' } });
      });
      await database.rows(sql`alter table companies drop column upgraded_in`);
    } finally {
      await database.close();
    }
  });

  it('tells where an import that has ended wrote its rows, so that its importer lists them', async () => {
    await whileLagging(async () => {
      // The position each answer of the job's own page carried (none while it runs, one once it has ended).
      const positions: (string | null)[] = [];
      const watching = {
        fetch: async (route: string, init: RequestInit = {}) => {
          const answer = await send(route, init);
          if (/^\/api\/v1\/imports\/\d+$/.test(route)) positions.push(answer.headers.get('read-after'));
          return answer;
        },
      };
      const job = await importAll(watching, 'companies', 'replica.csv', 'Name\nImported On Primary\n');
      expect(job).toMatchObject({ status: 'succeeded', created: 1 });
      const ended = positions.at(-1);
      expect(ended).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
      expect(positions.slice(0, -1).every((position) => position === null)).toBe(true);
      expect(await namesListed('Imported On Primary')).toEqual([]);
      expect(await namesListed('Imported On Primary', ended)).toEqual(['Imported On Primary']);
      // Reads answer no position.
      expect((await send('/api/v1/companies?pageSize=1')).headers.get('read-after')).toBeNull();
    });
  });

  it('reads the primary while the replica cannot be reached, and the replica again once it can', async () => {
    await pair.caughtUp();
    await pair.stopReplica();
    try {
      await create('While Replica Down');
      expect(await namesListed('While Replica Down')).toEqual(['While Replica Down']);
      const exported = await send('/api/v1/companies/export?filter[name][eq]=While%20Replica%20Down&select=name');
      expect(await exported.text()).toContain('While Replica Down');
    } finally {
      await pair.startReplica();
    }
    await whileLagging(async () => {
      await create('Replica Back');
      // Tried again 5 s after it failed (read-replica.ts's DOWN_MS).
      await expect.poll(() => namesListed('Replica Back'), { timeout: 15_000, interval: 500 }).toEqual([]);
    });
  });
});
