import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DATABASE_RETRY_AFTER_SECONDS } from '../db/errors.ts';
import {
  type ServerData,
  serverData,
  signInAsAdmin,
  spawnServerProcess,
  startServerProcess,
  stopServerProcesses,
} from '../testing/server-process.ts';

/**
 * PostgreSQL connections lost under a running server (a restart, a failover,
 * an administrator, an idle reaper): the process stays up, requests meanwhile
 * answer 200 or 503, never 500 and never hang, and service comes back by
 * itself. The server runs as its own process so that an exit would show.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/** Longer than any answer may take: a request still open then is a hang. */
const HANG_MS = 30_000;

let data: ServerData | undefined;
beforeAll(async () => {
  if (onPostgres) data = await serverData('postgres');
});
afterAll(async () => {
  await stopServerProcesses();
  await data?.remove();
});

interface Sample {
  what: string;
  status: number | string;
  body?: string;
}

/**
 * Requests in a loop from a few workers: lists (a read with the session
 * check), creates (a write in a transaction) and health, recording each answer.
 */
function startLoad(url: string, token: string, workers = 6) {
  const answers: Sample[] = [];
  let running = true;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const requests = [
    () => ({ what: 'list', path: '/api/v1/companies?pageSize=5', init: { headers } }),
    () => ({
      what: 'create',
      path: '/api/v1/companies',
      init: { method: 'POST', headers, body: JSON.stringify({ name: `Load ${randomBytes(4).toString('hex')}` }) },
    }),
    () => ({ what: 'health', path: '/api/health', init: {} }),
  ];
  const worker = async (offset: number) => {
    for (let i = offset; running; i++) {
      const { what, path, init } = (requests[i % requests.length] as (typeof requests)[number])();
      try {
        const answer = await fetch(`${url}${path}`, { ...init, signal: AbortSignal.timeout(HANG_MS) });
        const body = await answer.text();
        answers.push({ what, status: answer.status, ...(answer.status >= 300 ? { body } : {}) });
      } catch (error) {
        answers.push({ what, status: (error as Error).name === 'TimeoutError' ? 'hang' : String(error) });
      }
    }
  };
  const done = Promise.all(Array.from({ length: workers }, (_, i) => worker(i)));
  return {
    answers,
    async stop() {
      running = false;
      await done;
    },
  };
}

/** Resolves once `load` has recorded `more` answers beyond what it has now. */
async function progress(load: { answers: Sample[] }, more: number) {
  const target = load.answers.length + more;
  await vi.waitFor(() => expect(load.answers.length).toBeGreaterThanOrEqual(target), {
    timeout: HANG_MS,
    interval: 10,
  });
}

/** Every kind of request answers 200/201 again (a few dead connections may still be found first: waits them out). */
async function allAnswer(url: string, token: string) {
  await vi.waitFor(async () => expect((await fetch(`${url}/api/health`)).status).toBe(200), {
    timeout: HANG_MS,
    interval: 50,
  });
  const load = startLoad(url, token, 3);
  await progress(load, 30);
  await load.stop();
  expect(load.answers.filter((a) => a.status !== 200 && a.status !== 201)).toEqual([]);
}

describe.skipIf(!onPostgres)('database connections lost (PostgreSQL)', () => {
  it('pg_terminate_backend under load, several times: no exit, 200 or 503 meanwhile, 200 after', {
    timeout: 120_000,
  }, async () => {
    const database = data as ServerData;
    const server = await startServerProcess(database, { LOG_LEVEL: 'warn' });
    const token = await signInAsAdmin(server.url);
    const admin = new pg.Client({ connectionString: database.databaseUrl });
    await admin.connect();
    const load = startLoad(server.url, token);
    let terminated = 0;
    try {
      for (let round = 0; round < 5; round++) {
        await progress(load, 20);
        const { rows } = await admin.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid()`,
        );
        terminated += rows.length;
      }
      await progress(load, 20);
    } finally {
      await load.stop();
      await admin.end();
    }

    expect(terminated).toBeGreaterThan(0);
    expect(server.child.exitCode).toBeNull();
    expect(load.answers.filter((a) => ![200, 201, 503].includes(a.status as number))).toEqual([]);
    // The loss was seen and told, not silently absorbed by luck.
    expect(server.output()).toMatch(/A database connection was lost/);
    await allAnswer(server.url, token);
    expect(server.child.exitCode).toBeNull();
    await server.stop('SIGTERM');
  });

  it('a database unreachable at start, then lost: the start waits, requests answer 503 with Retry-After, service returns', {
    timeout: 120_000,
  }, async () => {
    const database = data as ServerData;
    const target = new URL(database.databaseUrl as string);
    const proxy = await startProxy(target.hostname, Number(target.port || 5432));
    try {
      const viaProxy = new URL(target);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);

      proxy.down();
      const server = spawnServerProcess({ ...database, databaseUrl: viaProxy.toString() }, { LOG_LEVEL: 'warn' });
      await server.waitForOutput(/The database cannot be reached yet/);
      proxy.up();
      const url = await server.ready;
      const token = await signInAsAdmin(url);
      const headers = { authorization: `Bearer ${token}` };
      expect((await fetch(`${url}/api/health`)).status).toBe(200);

      proxy.down();
      for (const [path, init] of [
        ['/api/health', {}],
        ['/api/v1/companies?pageSize=5', { headers }],
        [
          '/api/v1/companies',
          {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({ name: 'During the outage' }),
          },
        ],
      ] as const) {
        const answer = await fetch(`${url}${path}`, { ...init, signal: AbortSignal.timeout(HANG_MS) });
        expect({ path, status: answer.status, retryAfter: answer.headers.get('retry-after') }).toEqual({
          path,
          status: 503,
          retryAfter: String(DATABASE_RETRY_AFTER_SECONDS),
        });
        expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('database_unavailable');
      }
      expect(server.child.exitCode).toBeNull();

      proxy.up();
      await allAnswer(url, token);
    } finally {
      await stopServerProcesses();
      await proxy.close();
    }
  });
});

describe('a database that never comes', () => {
  it('a start waits DATABASE_WAIT_SECONDS, saying so, then stops with a clear line instead of hanging', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const dataDir = await mkdtemp(path.join(tmpdir(), 'dp-process-'));
    try {
      const server = spawnServerProcess(
        { dataDir, databaseUrl: `postgres://postgres@127.0.0.1:${port}/nothing` },
        { LOG_LEVEL: 'warn', DATABASE_WAIT_SECONDS: '1' },
      );
      expect((await server.exited).code).toBe(1);
      expect(server.output()).toMatch(/The database cannot be reached yet \(ECONNREFUSED/);
      expect(server.output()).toMatch(/The database could not be reached within 1000 ms: ECONNREFUSED/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

/**
 * A TCP relay to PostgreSQL that the test can cut: `down` resets every
 * connection through it and every new one, as a database host that went
 * away; `up` relays again.
 */
async function startProxy(host: string, port: number) {
  let open = true;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!open) return client.resetAndDestroy();
    const upstream = net.connect(port, host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    down() {
      open = false;
      for (const socket of sockets) socket.resetAndDestroy();
    },
    up() {
      open = true;
    },
    async close() {
      this.down();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
