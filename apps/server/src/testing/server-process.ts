import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { createScratchDatabase, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from './test-server.ts';

/**
 * The real server as its own process (`node dist/start.js`, as `npm start` runs
 * it; the tests' global set-up builds it from the source), for
 * what a server inside the test process cannot show: that the process stays
 * up, that it survives kill -9 and starts again on the same data, that it
 * stops well on a signal.
 */

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const mainEntry = path.join(serverRoot, 'dist/start.js');

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  child: ChildProcess;
  /** Resolves with the server's address (`http://127.0.0.1:<port>`) once it listens; rejects if it exits first. */
  ready: Promise<string>;
  /** Resolves once the process has exited. */
  exited: Promise<Exit>;
  /** Everything it wrote so far, stdout and stderr (its log is JSON lines). */
  output(): string;
  /** Resolves once its output matches `pattern` `times` times (with the last match); rejects if it exits first. */
  waitForOutput(pattern: RegExp, times?: number): Promise<RegExpMatchArray>;
  /** Sends `signal` (kill -9 by default) unless it has exited, and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

export interface ServerData {
  /** DATA_DIR: PGlite's files (without databaseUrl) and stored uploads. */
  dataDir: string;
  /** A scratch PostgreSQL database, or undefined for PGlite. */
  databaseUrl?: string;
  /** Deletes the data directory and drops the scratch database. */
  remove(): Promise<void>;
}

const running = new Set<ServerProcess>();

/**
 * Data for server processes to start on, and start again on: a new data
 * directory, with a scratch database on TEST_DATABASE_URL's server when
 * `postgres` is asked (PGlite on disk in the directory otherwise).
 */
export async function serverData(kind: 'pglite' | 'postgres'): Promise<ServerData> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'dp-process-'));
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (kind === 'postgres' && !adminUrl) throw new Error('A PostgreSQL server process needs TEST_DATABASE_URL');
  const scratch = kind === 'postgres' && adminUrl ? await createScratchDatabase(adminUrl) : undefined;
  const template = inject('pgliteTemplate');
  if (!scratch && template) {
    // A copy of the migrated cluster the test run made once (global-setup.ts): the child skips initdb and migrations.
    const database = await openDatabase({
      dataDir: path.join(dataDir, 'pglite'),
      loadDataDir: new Blob([await readFile(template)]),
    });
    await database.close();
  }
  return {
    dataDir,
    databaseUrl: scratch?.url,
    async remove() {
      await scratch?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts `dist/start.js` in a child process on `data`, on a free loopback port,
 * with the test administrator and without the demo dataset; `env` adds or
 * overrides variables (LOG_LEVEL info with LOG_REQUESTS and LOG_FORMAT json:
 * the log is where a test sees a request arrive).
 */
export function spawnServerProcess(
  data: Pick<ServerData, 'dataDir' | 'databaseUrl'>,
  env: Record<string, string> = {},
): ServerProcess {
  const inherited = { ...process.env };
  // The outer environment's server settings must not leak into the child (a developer's DATABASE_URL).
  for (const name of ['DATABASE_URL', 'SMTP_URL', 'PUBLIC_URL', 'HOST', 'PORT', 'DATA_DIR']) delete inherited[name];
  const child = spawn(process.execPath, [mainEntry], {
    cwd: serverRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...inherited,
      DATA_DIR: data.dataDir,
      ...(data.databaseUrl ? { DATABASE_URL: data.databaseUrl } : {}),
      HOST: '127.0.0.1',
      PORT: '0',
      ADMIN_EMAIL: TEST_ADMIN_EMAIL,
      ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      // Tests read the requests that arrived from the log, as JSON lines.
      LOG_REQUESTS: 'true',
      LOG_FORMAT: 'json',
      ...env,
    },
  });
  let text = '';
  const watchers = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (const watcher of watchers) watcher();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(handle);
      for (const watcher of watchers) watcher();
      resolve({ code, signal });
    });
  });

  function waitForOutput(pattern: RegExp, times = 1): Promise<RegExpMatchArray> {
    const everywhere = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = [...text.matchAll(everywhere)][times - 1];
        if (match) {
          watchers.delete(check);
          resolve(match);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          watchers.delete(check);
          reject(new Error(`The server process exited before writing ${pattern}; it wrote:\n${text.slice(-4000)}`));
        }
      };
      watchers.add(check);
      check();
    });
  }

  const handle: ServerProcess = {
    child,
    ready: waitForOutput(/is ready on (http:\/\/\S+)/).then((match) => match[1] as string),
    exited,
    output: () => text,
    waitForOutput,
    async stop(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  // A test that fails before starting the server may not wait for it: keep the rejection from going unhandled.
  handle.ready.catch(() => {});
  running.add(handle);
  return handle;
}

/** Starts a server process and waits until it listens; see spawnServerProcess. */
export async function startServerProcess(
  data: Pick<ServerData, 'dataDir' | 'databaseUrl'>,
  env?: Record<string, string>,
): Promise<ServerProcess & { url: string }> {
  const handle = spawnServerProcess(data, env);
  return { ...handle, url: await handle.ready };
}

/** Kills every server process still running (afterAll: a failed test must not leave one listening). */
export async function stopServerProcesses(): Promise<void> {
  await Promise.all([...running].map((handle) => handle.stop('SIGKILL')));
}

/** A bearer token of the test administrator of a server process. */
export async function signInAsAdmin(url: string): Promise<string> {
  const answer = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD }),
  });
  if (!answer.ok) throw new Error(`The test administrator cannot sign in: ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { accessToken: string }).accessToken;
}

/**
 * Two server processes over one scratch PostgreSQL database, as replicas
 * behind a load balancer, started one after the other (the first makes the
 * administrator); `stopServerProcesses` and `data.remove` end them.
 */
type Listening = ServerProcess & { url: string };

export async function startReplicas(): Promise<{ data: ServerData; first: Listening; second: Listening }> {
  const data = await serverData('postgres');
  const first = await startServerProcess(data, { LOG_LEVEL: 'warn' });
  const second = await startServerProcess(data, { LOG_LEVEL: 'warn' });
  return { data, first, second };
}
