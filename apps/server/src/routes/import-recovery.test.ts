import { afterAll, describe, expect, it } from 'vitest';
import { unique } from '../testing/factories.ts';
import { startImport, uploadImport, waitForImport } from '../testing/import-jobs.ts';
import {
  type ServerData,
  serverData,
  signInAsAdmin,
  startServerProcess,
  stopServerProcesses,
} from '../testing/server-process.ts';

/**
 * A server killed (kill -9) while an import job writes: the next server to
 * start takes the job over and says what it did. A skip-bad-rows job goes on
 * after the last batch it committed (no row twice, none lost); an
 * all-or-nothing job takes back the rows it had written.
 */
const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
let data: ServerData | undefined;
afterAll(async () => {
  await stopServerProcesses();
  await data?.remove();
});

const ROWS = 12_000;

function csvOf(city: string): string {
  const lines = ['Name,City,Employees'];
  for (let i = 1; i <= ROWS; i++) lines.push(`Killed ${i},${city},${i}`);
  return `${lines.join('\n')}\n`;
}

async function countIn(url: string, token: string, city: string): Promise<number> {
  const answer = await fetch(
    `${url}/api/v1/companies?filter[city][eq]=${encodeURIComponent(city)}&pageSize=1&count=exact`,
    {
      headers: { authorization: `Bearer ${token}` },
    },
  );
  return ((await answer.json()) as { total: number }).total;
}

describe('an import job when its server is killed', () => {
  it.each([
    ['skipBadRows', 'resumed', ROWS],
    ['allOrNothing', 'rolledBack', 0],
  ] as const)(
    '%s: a restarted server finds it %s',
    async (mode, recovery, stays) => {
      data ??= await serverData(kind);
      const first = await startServerProcess(data, { LOG_LEVEL: 'warn', LOG_REQUESTS: 'false' });
      const token = await signInAsAdmin(first.url);
      const client = {
        fetch: (path: string, init: RequestInit = {}) => {
          const headers = new Headers(init.headers);
          if (!headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
          return fetch(`${first.url}${path}`, { ...init, headers });
        },
      };
      const city = unique('Killtown');
      const uploaded = await uploadImport(client, 'companies', 'killed.csv', csvOf(city));
      expect(uploaded.status).toBe(201);
      const started = await startImport(client, {
        entity: 'companies',
        uploadId: uploaded.body.uploadId,
        mapping: uploaded.body.columns.map((c) => c.target),
        mode,
      });
      expect(started.status).toBe(202);
      const writing = await waitForImport(client, started.body.id, (job) => job.rowsDone >= 1000, 120_000);
      expect(writing.status).toBe('writing');
      expect(await first.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });

      const second = await startServerProcess(data, { LOG_LEVEL: 'warn', LOG_REQUESTS: 'false' });
      const secondToken = await signInAsAdmin(second.url);
      const again = {
        fetch: (path: string, init: RequestInit = {}) =>
          fetch(`${second.url}${path}`, { ...init, headers: { authorization: `Bearer ${secondToken}` } }),
      };
      const job = await waitForImport(
        again,
        started.body.id,
        (j) => ['succeeded', 'failed', 'rolledBack', 'cancelled', 'undone'].includes(j.status),
        180_000,
      );
      expect(job).toMatchObject({ recovery, status: mode === 'skipBadRows' ? 'succeeded' : 'rolledBack' });
      if (mode === 'skipBadRows') expect(job).toMatchObject({ rowsDone: ROWS, created: ROWS, failed: 0 });
      expect(await countIn(second.url, secondToken, city)).toBe(stays);
      await second.stop('SIGTERM');
    },
    400_000,
  );
});
