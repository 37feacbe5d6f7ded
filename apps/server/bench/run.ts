/**
 * `npm run bench -- --scale N [--connections 10,50] [--duration 10] [--q nova]`
 *
 * Seeds (or reuses) a database at scale N, starts the real server as a child
 * process and measures the companies API over HTTP with autocannon. Prints a
 * table and writes bench/results/<database>-<N>.json.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { companies } from '@data-platform/shared/entities/companies';
import { entityFieldTypes } from '@data-platform/shared/entities/custom-fields';
import autocannon, { type Request } from 'autocannon';
import { sql } from 'drizzle-orm';
import { pgArrayLiteral } from '../src/crud/sql-fragments.ts';
import { benchAccount, benchTarget, ensureBenchAccount, ensureSeeded, openTarget } from './prepare.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string' },
    connections: { type: 'string', default: '10,50' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    q: { type: 'string', default: 'nova' },
  },
});
const scale = Number(values.scale);
const connectionCounts = values.connections.split(',').map(Number);
const duration = Number(values.duration);
const warmup = Number(values.warmup);
if (
  !Number.isInteger(scale) ||
  scale < 1000 ||
  connectionCounts.some((c) => !Number.isInteger(c) || c < 1) ||
  !(duration > 0) ||
  !(warmup >= 0)
) {
  console.error('Usage: npm run bench -- --scale N [--connections 10,50] [--duration 10] [--warmup 2] [--q text]');
  console.error('N is the number of companies, at least 1000.');
  process.exit(2);
}

/** Rows deep into the name order where the cursor scenario reads (less on small test scales). */
const CURSOR_DEPTH = Math.max(1000, Math.min(50_000, Math.floor(scale / 2000) * 1000));
/** Values of the benchmark's custom picklist, given to the companies in turn. */
const CUSTOM_VALUES = ['Referral', 'Conference', 'Inbound', 'Outbound'];
const serverDir = path.resolve(import.meta.dirname, '..');
const api = `/api/v1/${companies.name}`;

interface Scenario {
  name: string;
  /** Writes run after every read scenario, so that reads see the seeded tables as they were loaded. */
  writes?: boolean;
  /** What the scenario must meet, when the brief sets a target. */
  p50Target?: number;
  requests: Request[];
}

interface Result {
  scenario: string;
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  non2xx: number;
  errors: number;
}

const target = await benchTarget(scale, process.env.DATABASE_URL);
const database = await openTarget(target);
let seedTimings: Awaited<ReturnType<typeof ensureSeeded>>;
let usId: number;
let updateIds: number[];
let customKey: string;
try {
  await ensureBenchAccount(database, target.dataDir);
  seedTimings = await ensureSeeded(database, scale, (line) => console.log(line));
  const [us] = await database.rows<{ id: number }>(sql`select id::int as id from countries where iso2 = 'US'`);
  if (!us) throw new Error('No United States in countries');
  usId = us.id;
  customKey = await ensureCustomField(database);
  // Each update needs a row still at version 1; spread them over the table.
  updateIds = (
    await database.rows<{ id: number }>(
      sql`select id::int as id from ${sql.identifier(companies.table)} where version = 1 order by id limit 200000`,
    )
  ).map((r) => r.id);
} finally {
  // PGlite allows one process at a time: the server opens it next.
  await database.close();
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = startServer(port);
try {
  await waitUntilReady(base, server);
  const auth = { authorization: `Bearer ${await signIn(base)}` };
  const cursor = await cursorAt(base, auth, CURSOR_DEPTH);
  const randomId = () => 1 + Math.floor(Math.random() * scale);
  let created = 0;
  let updated = 0;
  const json = { ...auth, 'content-type': 'application/json' };
  const list = (query: string): Request[] => [{ method: 'GET', path: `${api}?${query}`, headers: auth }];
  const scenarios: Scenario[] = [
    { name: 'list sorted by name', p50Target: 10, requests: list('sort=name') },
    {
      name: 'list by country, by name',
      p50Target: 10,
      requests: list(`filter[hqCountryId][eq]=${usId}&sort=name`),
    },
    { name: `search q=${values.q}`, p50Target: 50, requests: list(`q=${encodeURIComponent(values.q)}`) },
    {
      name: 'list by a custom picklist, by name',
      requests: list(`filter[${customKey}][eq]=${CUSTOM_VALUES[0]}&sort=name`),
    },
    { name: 'list sorted by a custom picklist', requests: list(`sort=${customKey}`) },
    {
      name: 'get by id',
      p50Target: 10,
      requests: [{ method: 'GET', headers: auth, setupRequest: (r) => ({ ...r, path: `${api}/${randomId()}` }) }],
    },
    {
      name: `cursor page at ${CURSOR_DEPTH}`,
      p50Target: 10,
      requests: list(`sort=name&pageSize=50&cursor=${encodeURIComponent(cursor)}`),
    },
    {
      name: 'create',
      writes: true,
      requests: [
        {
          method: 'POST',
          headers: json,
          setupRequest: (r) => ({
            ...r,
            path: api,
            body: JSON.stringify({ name: `Bench Company ${++created}`, industry: 'Software', hqCountryId: usId }),
          }),
        },
      ],
    },
    {
      name: 'update',
      writes: true,
      requests: [
        {
          method: 'PATCH',
          setupRequest: (r) => ({
            ...r,
            path: `${api}/${updateIds[updated++ % updateIds.length]}`,
            headers: { ...json, 'if-match': '1' },
            body: JSON.stringify({ employees: 1 + (updated % 5000) }),
          }),
        },
      ],
    },
  ];

  const results: Result[] = [];
  // Other work on the machine skews every number; the JSON keeps what the load was.
  const loadBefore = os.loadavg();
  console.log(
    `\n${target.label} at scale ${scale}: ${duration} s per run after ${warmup} s of warm-up, server on ${os.cpus().length} CPUs shared with the database and autocannon\n`,
  );
  console.log(header());
  for (const writes of [false, true]) {
    for (const connections of connectionCounts) {
      for (const scenario of scenarios.filter((x) => Boolean(x.writes) === writes)) {
        if (warmup > 0) await measure(base, scenario, connections, warmup);
        const result = await measure(base, scenario, connections, duration);
        results.push(result);
        console.log(line(result));
      }
    }
  }
  const targets = checkTargets(target.kind, scenarios, results);
  for (const t of targets) console.log(`${t.met ? 'met   ' : 'MISSED'} ${t.description}: ${t.actual}`);
  const file = path.join(serverDir, 'bench', 'results', `${target.label}-${scale}.json`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(
    file,
    `${JSON.stringify(
      {
        database: target.kind,
        scale,
        date: new Date().toISOString(),
        machine: {
          cpus: os.cpus().length,
          cpuModel: os.cpus()[0]?.model,
          memoryGb: Math.round(os.totalmem() / 2 ** 30),
          loadAverage1m: { before: round(loadBefore[0] ?? 0), after: round(os.loadavg()[0] ?? 0) },
        },
        node: process.version,
        durationSeconds: duration,
        warmupSeconds: warmup,
        parameters: { usCountryId: usId, q: values.q, cursorDepth: CURSOR_DEPTH, customField: customKey },
        seed: seedTimings,
        results,
        targets,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nWrote ${path.relative(process.cwd(), file)}`);
} finally {
  await stopServer(server);
}

/** One autocannon run; latencies from every response, 2xx or not, in milliseconds. */
async function measure(url: string, scenario: Scenario, connections: number, seconds: number): Promise<Result> {
  const latencies: number[] = [];
  let non2xx = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections, duration: seconds, requests: scenario.requests }, (error, done) =>
      error ? reject(error) : resolve(done),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
      if (statusCode < 200 || statusCode >= 300) non2xx++;
    });
  });
  latencies.sort((a, b) => a - b);
  const at = (p: number) =>
    round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0);
  return {
    scenario: scenario.name,
    connections,
    requests: latencies.length,
    rps: Math.round(latencies.length / result.duration),
    p50: at(50),
    p90: at(90),
    p99: at(99),
    non2xx,
    errors: result.errors + result.timeouts,
  };
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** The longest scenario name, "list by a custom picklist, by name". */
const SCENARIO_WIDTH = 36;

function header(): string {
  return `${'scenario'.padEnd(SCENARIO_WIDTH)} ${'conns'.padStart(5)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p90 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'non-2xx/errors'.padStart(15)}`;
}

function line(r: Result): string {
  return `${r.scenario.padEnd(SCENARIO_WIDTH)} ${String(r.connections).padStart(5)} ${String(r.rps).padStart(7)} ${r.p50.toFixed(1).padStart(7)} ${r.p90.toFixed(1).padStart(7)} ${r.p99.toFixed(1).padStart(7)} ${`${r.non2xx}/${r.errors}`.padStart(15)}`;
}

/**
 * The brief's targets: on PostgreSQL p50 under 10 ms for lists, get and cursor
 * pages and under 50 ms for search, 1,000 list requests/s at 50 connections;
 * on PGlite p50 under 25 ms for the same reads. Any failed request misses.
 */
function checkTargets(kind: 'postgres' | 'pglite', scenarios: Scenario[], results: Result[]) {
  const targets: { description: string; actual: string; met: boolean }[] = [];
  for (const r of results) {
    const scenario = scenarios.find((s) => s.name === r.scenario);
    if (scenario?.p50Target !== undefined) {
      const limit = kind === 'postgres' ? scenario.p50Target : 25;
      targets.push({
        description: `${r.scenario} at ${r.connections} connections: p50 < ${limit} ms`,
        actual: `${r.p50} ms`,
        met: r.p50 < limit,
      });
    }
    if (r.non2xx + r.errors > 0) {
      targets.push({
        description: `${r.scenario} at ${r.connections} connections: no failed requests`,
        actual: `${r.non2xx} non-2xx, ${r.errors} errors`,
        met: false,
      });
    }
  }
  if (kind === 'postgres') {
    for (const r of results.filter((x) => x.connections === 50 && x.scenario.startsWith('list'))) {
      targets.push({
        description: `${r.scenario} at 50 connections: ≥ 1000 req/s`,
        actual: `${r.rps} req/s`,
        met: r.rps >= 1000,
      });
    }
  }
  return targets;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const found = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(found));
    });
  });
}

/** The real server in a process of its own, so that it does not share an event loop with autocannon. */
function startServer(port: number): ChildProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: target.dataDir,
    // Request logs would measure the terminal; warnings and errors still show.
    LOG_LEVEL: 'warn',
  };
  if (target.url) env.DATABASE_URL = target.url;
  else delete env.DATABASE_URL;
  return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: serverDir, env, stdio: 'inherit' });
}

async function waitUntilReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('The server did not become ready within 3 minutes');
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** A bearer token for the bench's administrator, from the real sign-in route. */
async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(benchAccount),
  });
  if (!response.ok) throw new Error(`Signing in: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { accessToken: string }).accessToken;
}

/** The cursor that continues after row `depth` of the name order, found by walking 1,000 rows a page. */
async function cursorAt(url: string, headers: Record<string, string>, depth: number): Promise<string> {
  let cursor: string | null = null;
  for (let read = 0; read < depth; read += 1000) {
    const query = new URLSearchParams({ sort: 'name', pageSize: '1000', select: 'id' });
    if (cursor) query.set('cursor', cursor);
    const response = await fetch(`${url}${api}?${query}`, { headers });
    if (!response.ok) throw new Error(`Walking to the cursor: ${response.status} ${await response.text()}`);
    const page = (await response.json()) as { nextCursor: string | null };
    if (!page.nextCursor) throw new Error(`The list ends before row ${depth}`);
    cursor = page.nextCursor;
  }
  return cursor as string;
}

/**
 * A custom picklist on companies with a value on every company, so that
 * filters and sorts on custom fields are measured at the scale: answers its key.
 */
async function ensureCustomField(database: Awaited<ReturnType<typeof openTarget>>): Promise<string> {
  const name = 'Bench source';
  await database.rows(
    sql`insert into ${sql.identifier(entityFieldTypes.table)} (entity, name, type, options)
      values (${companies.name}, ${name}, 'select', ${pgArrayLiteral(CUSTOM_VALUES)}::text[])
      on conflict (entity, name) do nothing`,
  );
  const [field] = await database.rows<{ key: string }>(
    sql`select key from ${sql.identifier(entityFieldTypes.table)} where entity = ${companies.name} and name = ${name}`,
  );
  if (!field) throw new Error('The benchmark custom field is missing');
  const values = pgArrayLiteral(CUSTOM_VALUES);
  await database.rows(
    sql`update ${sql.identifier(companies.table)}
      set custom = custom || jsonb_build_object(${field.key}::text, (${values}::text[])[1 + id % ${CUSTOM_VALUES.length}])
      where not custom ? ${field.key}`,
  );
  return field.key;
}
