import { execFile } from 'node:child_process';
import { access, appendFile, chown, constants, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * A real PostgreSQL primary and a real streaming replica of it, each a
 * throwaway cluster in a temp directory on free loopback ports, for tests of
 * reads sent to a read replica: replication lag is made on purpose by pausing
 * replay, and a replica outage by stopping it.
 */

export interface ReplicaPair {
  primaryUrl: string; // postgres://postgres@127.0.0.1:<p>/dp
  replicaUrl: string; // postgres://postgres@127.0.0.1:<r>/dp
  /** Stops applying WAL on the replica (pg_wal_replay_pause()), and waits until pg_get_wal_replay_pause_state() = 'paused'. */
  pauseReplay(): Promise<void>;
  /** pg_wal_replay_resume(). */
  resumeReplay(): Promise<void>;
  /** Resolves once the replica has replayed everything the primary had written when called (compare pg_current_wal_lsn() on the primary with pg_last_wal_replay_lsn() on the replica, polling every 50 ms, up to 30 s, then throw). */
  caughtUp(): Promise<void>;
  /** pg_ctl stop -m fast on the replica / start it again (waits until it accepts connections). */
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  /** Stops both (immediate mode is fine) and removes the temp directory. Safe to call twice and after a failed start. */
  close(): Promise<void>;
}

const execFileAsync = promisify(execFile);
const WAIT_MS = 30_000;

interface Cluster {
  bin: string;
  /** PostgreSQL refuses to run as root: tests run as root run it as the `postgres` OS user. */
  asPostgres: boolean;
  dir: string;
}

interface Instance {
  dataDir: string;
  log: string;
  url: string;
  options: string;
}

export async function startReplicaPair(): Promise<ReplicaPair> {
  const bin = await postgresBinDir();
  const asPostgres = process.getuid?.() === 0;
  const [primaryPort, replicaPort] = (await freePorts(2)) as [number, number];
  const dir = await mkdtemp(path.join(tmpdir(), 'dp-replica-'));
  const cluster: Cluster = { bin, asPostgres, dir };
  const primary = instance(cluster, 'primary', primaryPort, '-c wal_level=replica -c max_wal_senders=5');
  const replica = instance(cluster, 'replica', replicaPort, '-c hot_standby=on');

  let closing: Promise<void> | undefined;
  const pair: ReplicaPair = {
    primaryUrl: primary.url,
    replicaUrl: replica.url,
    async pauseReplay() {
      await queryValue(replica.url, 'select pg_wal_replay_pause()');
      await until('replay on the replica to pause', async () => {
        return (await queryValue(replica.url, 'select pg_get_wal_replay_pause_state() as value')) === 'paused';
      });
    },
    async resumeReplay() {
      await queryValue(replica.url, 'select pg_wal_replay_resume()');
    },
    async caughtUp() {
      const target = await primaryWalEnd(primary.url);
      await until(`the replica to replay WAL up to ${target}`, async () => {
        return (
          (await queryValue(replica.url, 'select pg_last_wal_replay_lsn() >= $1::pg_lsn as value', [target])) === true
        );
      });
    },
    async stopReplica() {
      await withLogTail(replica.log, () => pgCtl(cluster, replica, ['-m', 'fast', 'stop']));
    },
    startReplica: () => startInstance(cluster, replica, true),
    close() {
      closing ??= (async () => {
        // Errors are expected here (a server never started): the directory goes either way.
        await Promise.allSettled([primary, replica].map((each) => pgCtl(cluster, each, ['-m', 'immediate', 'stop'])));
        await rm(dir, { recursive: true, force: true });
      })();
      return closing;
    },
  };

  try {
    if (asPostgres) await chownToPostgres(dir);
    await run(cluster, 'initdb', [
      '-D',
      primary.dataDir,
      '--auth=trust',
      '--username=postgres',
      '--encoding=UTF8',
      '--locale=C.UTF-8',
    ]);
    await allowLoopbackReplication(primary.dataDir);
    await startInstance(cluster, primary, false);
    await withLogTail(primary.log, () =>
      queryValue(`postgres://postgres@127.0.0.1:${primaryPort}/postgres`, 'create database dp'),
    );
    await run(cluster, 'pg_basebackup', [
      ...['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres'],
      ...['-D', replica.dataDir, '-R', '-X', 'stream', '-c', 'fast'],
    ]);
    await startInstance(cluster, replica, true);
    return pair;
  } catch (error) {
    await pair.close();
    throw error;
  }
}

function instance(cluster: Cluster, name: string, port: number, extra: string): Instance {
  // pg_ctl hands -o to /bin/sh: the socket directory is quoted (mkdtemp names have no quotes).
  const common = `-p ${port} -k '${cluster.dir}' -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=32MB`;
  return {
    dataDir: path.join(cluster.dir, name),
    log: path.join(cluster.dir, `${name}.log`),
    url: `postgres://postgres@127.0.0.1:${port}/dp`,
    options: `${common} ${extra}`,
  };
}

async function startInstance(cluster: Cluster, server: Instance, standby: boolean): Promise<void> {
  await withLogTail(server.log, async () => {
    await pgCtl(cluster, server, ['-l', server.log, '-o', server.options, 'start']);
    if (!standby) return;
    await until('the replica to accept connections in recovery', async () => {
      return (await queryValue(server.url, 'select pg_is_in_recovery() as value')) === true;
    });
  });
}

function pgCtl(cluster: Cluster, server: Instance, args: string[]): Promise<string> {
  return run(cluster, 'pg_ctl', ['-D', server.dataDir, '-w', ...args]);
}

/**
 * The primary's WAL position once everything committed so far is flushed:
 * with synchronous_commit=off a commit may still sit in WAL buffers, which
 * pg_current_wal_lsn() does not count and the replica is not sent. A
 * synchronous commit of our own flushes all WAL before it, but only a
 * transaction that wrote WAL waits for the flush: hence the (replayed as a
 * no-op) logical message.
 */
async function primaryWalEnd(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('set synchronous_commit = on');
    await client.query("select pg_logical_emit_message(true, 'dp-replica-pair', '')");
    const result = await client.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
    return result.rows[0]?.lsn as string;
  } finally {
    await client.end();
  }
}

/** initdb --auth=trust allows replication from 127.0.0.1 today; the pair must not depend on it. */
async function allowLoopbackReplication(dataDir: string): Promise<void> {
  const file = path.join(dataDir, 'pg_hba.conf');
  if (/^\s*host\S*\s+replication\s+\S+\s+127\.0\.0\.1\/32\s/m.test(await readFile(file, 'utf8'))) return;
  await appendFile(file, '\nhost replication all 127.0.0.1/32 trust\n');
}

async function queryValue(url: string, sql: string, values: unknown[] = []): Promise<unknown> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ value: unknown }>(sql, values);
    return result.rows[0]?.value;
  } finally {
    await client.end();
  }
}

/** Polls `check` every 50 ms; errors count as "not yet" (a server starting refuses connections). */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    let lastError: unknown;
    try {
      if (await check()) return;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `Timed out after ${WAIT_MS / 1000} s waiting for ${what}${lastError ? `: ${messageOf(lastError)}` : ''}`,
      );
    }
    await sleep(50);
  }
}

async function run(cluster: Cluster, tool: string, args: string[]): Promise<string> {
  const file = path.join(cluster.bin, tool);
  const [command, commandArgs] = cluster.asPostgres
    ? ['runuser', ['-u', 'postgres', '--', file, ...args]]
    : [file, args];
  try {
    // The temp directory as working directory: the postgres user may not be allowed into ours.
    return (await execFileAsync(command, commandArgs, { cwd: cluster.dir })).stdout;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`${tool} failed: ${stderr || messageOf(error)}`, { cause: error });
  }
}

async function withLogTail<T>(log: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const text = await readFile(log, 'utf8').catch(() => '(no log written)');
    const tail = text.trimEnd().split('\n').slice(-30).join('\n');
    throw new Error(`${messageOf(error)}\n--- last lines of ${log} ---\n${tail}`, { cause: error });
  }
}

/** The newest installed server (Debian keeps each major version apart), else whatever pg_config names. */
async function postgresBinDir(): Promise<string> {
  const root = '/usr/lib/postgresql';
  const versions = await readdir(root).catch(() => []);
  const candidates = versions
    .filter((version) => /^\d+(\.\d+)?$/.test(version))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
    .map((version) => path.join(root, version, 'bin'));
  for (const dir of candidates) if (await isExecutable(path.join(dir, 'initdb'))) return dir;
  const configured = await execFileAsync('pg_config', ['--bindir']).then(
    ({ stdout }) => stdout.trim(),
    () => '',
  );
  if (configured && (await isExecutable(path.join(configured, 'initdb')))) return configured;
  throw new Error(
    'PostgreSQL server binaries not found: no initdb under /usr/lib/postgresql/*/bin nor in `pg_config --bindir` (install the postgresql package)',
  );
}

function isExecutable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(
    () => true,
    () => false,
  );
}

async function chownToPostgres(dir: string): Promise<void> {
  const id = async (flag: string) => Number((await execFileAsync('id', [flag, 'postgres'])).stdout.trim());
  try {
    await chown(dir, await id('-u'), await id('-g'));
  } catch (error) {
    throw new Error(`Running as root, PostgreSQL needs the postgres OS user: ${messageOf(error)}`, { cause: error });
  }
}

/** Ports free now, distinct from each other: all are held open until every one is known. */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Server>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
