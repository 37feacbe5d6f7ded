/**
 * `npm run bench -- --scale N [--connections 10,50] [--duration 10] [--q nova] [--api-only]`
 *
 * Seeds (or reuses) a database at scale N, starts the real server as a child
 * process and measures the companies API over HTTP with autocannon; beside
 * each API run, the SQL floor of the same scenario (its main statement, from
 * the server's own compiler, over raw connections), the CPU per request of
 * the server and of PostgreSQL, and (in a separate counting pass through a
 * relay) the statements each request sends. Prints a table and writes
 * bench/results/<database>-<N>.json.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { companies } from '@data-platform/shared/entities/companies';
import { entityFieldTypes } from '@data-platform/shared/entities/custom-fields';
import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { createSchema, updateSchema } from '@data-platform/shared/entities/record-schema';
import { allPermissions } from '@data-platform/shared/permissions';
import type { Request } from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { readableScope, readerDescription } from '../src/access/reading.ts';
import type { Actor } from '../src/auth/actor.ts';
import { searchPlan } from '../src/crud/list-count.ts';
import { pgArrayLiteral } from '../src/crud/sql-fragments.ts';
import type { Database } from '../src/db/client.ts';
import { allPostgresCpuMs, backendsCpuDelta, databaseBackendsCpu, processCpuMs } from './cpu.ts';
import {
  createFloor,
  type FloorRunner,
  type FloorStatement,
  getFloor,
  listFloor,
  listQueryOf,
  PLACEHOLDER_NUMBER,
  PLACEHOLDER_TEXT,
  pgliteFloor,
  postgresFloor,
  updateFloor,
} from './floor.ts';
import type { HttpFloorConfig } from './http-floor.ts';
import { cursorAt, freePort, measure, signIn, stopServer, waitUntilReady } from './http-runs.ts';
import { benchAccount, benchTarget, ensureBenchAccount, ensureSeeded, openTarget } from './prepare.ts';
import {
  checkTargets,
  type FloorResult,
  header,
  line,
  type Result,
  round,
  type ScenarioGoals,
  type StatementCount,
} from './report.ts';
import { serverCommand } from './server-process.ts';
import { startStatementCounter, textDigest } from './statement-counter.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string' },
    connections: { type: 'string', default: '10,50' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    q: { type: 'string', default: 'nova' },
    'api-only': { type: 'boolean', default: false },
    'count-requests': { type: 'string', default: '100' },
    only: { type: 'string' },
    'server-root': { type: 'string' },
    out: { type: 'string' },
  },
});
const scale = Number(values.scale);
const connectionCounts = values.connections.split(',').map(Number);
const duration = Number(values.duration);
const warmup = Number(values.warmup);
const countRequests = Number(values['count-requests']);
const withFloor = !values['api-only'];
/** Each `--q` term (comma-separated) is a search scenario of its own. */
const searchTerms = values.q.split(',').filter((term) => term !== '');
/** `--only list,search`: the scenarios whose name contains one of these (all without it). */
const onlyNames = values.only?.split(',').filter((name) => name !== '');
/** `--server-root`: the server of another checkout (a git worktree at an earlier commit), to compare in one sitting. */
const serverRoot = values['server-root'] ? path.resolve(values['server-root']) : undefined;
if (
  !Number.isInteger(scale) ||
  scale < 1000 ||
  connectionCounts.some((c) => !Number.isInteger(c) || c < 1) ||
  !(duration > 0) ||
  !(warmup >= 0) ||
  !Number.isInteger(countRequests) ||
  countRequests < 1
) {
  console.error(
    'Usage: npm run bench -- --scale N [--connections 10,50] [--duration 10] [--warmup 2] [--q text,text] [--api-only] [--count-requests 100] [--only name,name] [--server-root dir] [--out file.json]',
  );
  console.error('N is the number of companies, at least 1000.');
  process.exit(2);
}

/** Rows deep into the name order where the cursor scenario reads (less on small test scales). */
const CURSOR_DEPTH = Math.max(1000, Math.min(50_000, Math.floor(scale / 2000) * 1000));
/** Rows per page of the list scenarios: the API's default. */
const PAGE_SIZE = 50;
/** The server's connections to PostgreSQL (db/client.ts's default): the HTTP floor's pool too. */
const SERVER_POOL_SIZE = 10;
/** The `page=` scenario reads as deep as the cursor one: page 1000 at 50,000 rows. */
const OFFSET_PAGE = CURSOR_DEPTH / PAGE_SIZE;
/**
 * How the "filter + total" scenario asks for its total. Lists answer no total
 * unless asked (issue 12, PostgREST's `count=exact|planned|estimated`); a
 * server that does not know the parameter yet counts on every list, and the
 * scenario then goes without it (see `totalParameter` in the results).
 */
const TOTAL_PARAMETER = 'count=estimated';
/** Values of the benchmark's custom picklist, given to the companies in turn. */
const CUSTOM_VALUES = ['Referral', 'Conference', 'Inbound', 'Outbound'];
/** Requests each scenario sends through the counting relay before counting starts (sessions, caches, pools warm). */
const COUNT_WARMUP_REQUESTS = 10;
const serverDir = path.resolve(import.meta.dirname, '..');
const api = `/api/v1/${companies.name}`;

/** What a floor statement is built from: the entity as the bench administrator reads it. */
interface FloorContext {
  entity: EntityDescription;
  userId: number;
  database: Database;
}

interface Scenario extends ScenarioGoals {
  requests: Request[];
  /** The scenario's main statement, as the server's compiler makes it. */
  floor?: (context: FloorContext) => FloorStatement | Promise<FloorStatement>;
  /** Answers one record (get by id), not a page. */
  single?: boolean;
}

const target = await benchTarget(scale, process.env.DATABASE_URL);
const databaseName = target.url ? decodeURIComponent(new URL(target.url).pathname.slice(1)) : undefined;
let database = await openTarget(target);
let seedTimings: Awaited<ReturnType<typeof ensureSeeded>>;
let usId: number;
let updateIds: number[];
let customKey: string;
let benchUserId: number;
try {
  await ensureBenchAccount(database, target.dataDir);
  seedTimings = await ensureSeeded(database, scale, (line) => console.log(line));
  const [us] = await database.rows<{ id: number }>(sql`select id::int as id from countries where iso2 = 'US'`);
  if (!us) throw new Error('No United States in countries');
  usId = us.id;
  const [user] = await database.rows<{ id: number }>(
    sql`select id::int as id from users where email = ${benchAccount.email}`,
  );
  if (!user) throw new Error('No bench administrator');
  benchUserId = user.id;
  customKey = await ensureCustomField(database);
  // Each update (the API's and the floor's) needs a row still at version 1: every such row, in order.
  updateIds = (
    await database.rows<{ id: number }>(
      sql`select id::int as id from ${sql.identifier(companies.table)} where version = 1 order by id`,
    )
  ).map((r) => r.id);
} finally {
  // PGlite allows one process at a time: the server opens it next.
  await database.close();
}

/** The bench administrator as the server sees it: every permission. */
const benchActor: Actor = { userId: benchUserId, permissions: new Set(allPermissions), sessionId: null };
let created = 0;
let updated = 0;
/** API and floor updates take rows from one sequence: each still at version 1 when its turn comes. */
const nextUpdateId = () => updateIds[updated++ % updateIds.length] as number;
const randomId = () => 1 + Math.floor(Math.random() * scale);

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
let server = startServer(port, target.url);
let monitor: pg.Client | undefined;
let floorRunner: FloorRunner | undefined;
let httpFloor: { process: ChildProcess; url: string; paths: Map<string, string> } | undefined;
try {
  await waitUntilReady(base, server);
  const auth = { authorization: `Bearer ${await signIn(base)}` };
  const cursor = await cursorAt(base, auth, CURSOR_DEPTH);
  const json = { ...auth, 'content-type': 'application/json' };
  const list = (query: string): Request[] => [{ method: 'GET', path: `${api}?${query}`, headers: auth }];
  const listScenario = (name: string, query: string, goals: Partial<ScenarioGoals> = {}): Scenario => ({
    name,
    ...goals,
    requests: list(query),
    // A ranked search's floor reads its page as the API chooses to (decision 0043).
    floor: async ({ entity, database }) =>
      listFloor(entity, query, await searchPlan(database, entity, listQueryOf(entity, query)), database.kind),
  });
  const byCountry = `filter[hqCountryId][eq]=${usId}&sort=name`;
  const totalParameter = (await accepted(base, auth, `${byCountry}&${TOTAL_PARAMETER}`)) ? TOTAL_PARAMETER : null;
  const createBody = { name: `Bench Company ${created}`, industry: 'Software', hqCountryId: usId };
  const allScenarios: Scenario[] = [
    listScenario('list sorted by name', 'sort=name', { p50Target: 10, pglite5ms: true }),
    listScenario('list by country, by name', byCountry, { p50Target: 10 }),
    listScenario('list by country + total', totalParameter ? `${byCountry}&${totalParameter}` : byCountry),
    ...searchTerms.map((term) => listScenario(`search q=${term}`, `q=${encodeURIComponent(term)}`, { p50Target: 50 })),
    listScenario('list by a custom picklist, by name', `filter[${customKey}][eq]=${CUSTOM_VALUES[0]}&sort=name`),
    {
      name: 'get by id',
      single: true,
      p50Target: 10,
      pglite5ms: true,
      requests: [{ method: 'GET', headers: auth, setupRequest: (r) => ({ ...r, path: `${api}/${randomId()}` }) }],
      floor: ({ entity }) => getFloor(entity, randomId),
    },
    listScenario(
      `cursor page at ${CURSOR_DEPTH}`,
      `sort=name&pageSize=${PAGE_SIZE}&cursor=${encodeURIComponent(cursor)}`,
      { p50Target: 10, pglite5ms: true },
    ),
    listScenario(`page ${OFFSET_PAGE} by page=`, `sort=name&pageSize=${PAGE_SIZE}&page=${OFFSET_PAGE}`),
    // A record's related rows, as its page lists them: a scoped list (no floor of its own).
    {
      name: 'related list, a country by name',
      p50Target: 10,
      requests: [{ method: 'GET', path: `/api/v1/countries/${usId}/states?sort=name`, headers: auth }],
    },
    // Last of the reads: its requests take seconds, and the next scenario waits for those still running in
    // PostgreSQL when its run ends (`settled`; a get right after it read 743 requests/s instead of 4,882).
    listScenario('list sorted by a custom picklist', `sort=${customKey}`),
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
            body: JSON.stringify({ ...createBody, name: `Bench Company ${++created}` }),
          }),
        },
      ],
      floor: ({ entity, userId }) =>
        createFloor(
          entity,
          { ...createSchema(entity).parse(createBody), name: PLACEHOLDER_TEXT },
          userId,
          () => `Bench Company ${++created}`,
        ),
    },
    {
      name: 'update',
      writes: true,
      requests: [
        {
          method: 'PATCH',
          setupRequest: (r) => ({
            ...r,
            path: `${api}/${nextUpdateId()}`,
            headers: { ...json, 'if-match': '1' },
            body: JSON.stringify({ employees: 1 + (updated % 5000) }),
          }),
        },
      ],
      floor: ({ entity, userId }) =>
        updateFloor(
          entity,
          { ...updateSchema(entity).parse({ employees: 1 }), employees: PLACEHOLDER_NUMBER },
          1,
          userId,
          nextUpdateId,
          () => 1 + (updated % 5000),
        ),
    },
  ];
  const scenarios = allScenarios.filter(
    (scenario) => !onlyNames || onlyNames.some((name) => scenario.name.includes(name)),
  );

  // PostgreSQL: the floor runs beside each API run; PGlite: after the server has let go of the database.
  const floors = new Map<string, FloorStatement>();
  if (withFloor && target.kind === 'postgres' && target.url) {
    await compileFloors(scenarios, floors);
    floorRunner = postgresFloor(target.url);
    httpFloor = await startHttpFloor(target.url, scenarios, floors);
  }
  if (target.url) {
    // Reads which backends serve the bench database, for PostgreSQL's CPU per request (also with --api-only).
    monitor = new pg.Client({ connectionString: target.url });
    await monitor.connect();
  }

  const results: Result[] = [];
  // Other work on the machine skews every number; the JSON keeps what the load was.
  const loadBefore = os.loadavg();
  console.log(
    `\n${target.label} at scale ${scale}: ${duration} s per run after ${warmup} s of warm-up, server on ${os.cpus().length} CPUs shared with the database and autocannon${withFloor ? '; each API run followed by its SQL floor' : ''}\n`,
  );
  console.log(header());
  const databaseInNode = target.kind === 'pglite';
  for (const writes of [false, true]) {
    for (const connections of connectionCounts) {
      for (const scenario of scenarios.filter((x) => Boolean(x.writes) === writes)) {
        if (monitor && databaseName) await settled(monitor, databaseName);
        if (warmup > 0) await measure(base, scenario, connections, warmup);
        const result = await measureWithCpu(base, scenario, connections, duration);
        const statement = floors.get(scenario.name);
        if (floorRunner && statement) {
          result.floor = await measureFloor(floorRunner, statement, connections);
          result.percentOfFloor = Math.round((100 * result.rps) / Math.max(1, result.floor.tps));
        }
        const httpPath = httpFloor?.paths.get(scenario.name);
        if (httpFloor && httpPath) {
          const bare: Scenario = { name: scenario.name, requests: [{ method: 'GET', path: httpPath }] };
          if (warmup > 0) await measure(httpFloor.url, bare, connections, warmup);
          const run = await measure(httpFloor.url, bare, connections, duration);
          result.httpFloor = { rps: run.rps, p50: run.p50, failures: run.non2xx + run.errors };
          result.percentOfHttpFloor = Math.round((100 * result.rps) / Math.max(1, run.rps));
        }
        results.push(result);
        console.log(line(result, undefined, databaseInNode));
      }
    }
  }
  await stopServer(server);
  // The counting pass's server opens connections of its own: the floors' (up to 50, and 10) are let go first.
  await floorRunner?.close();
  floorRunner = undefined;
  if (httpFloor) await stopServer(httpFloor.process);

  const counts: StatementCount[] = [];
  if (withFloor && target.kind === 'pglite') {
    console.log('\nPGlite: the SQL floor, in this process now that the server has stopped');
    database = await openTarget(target);
    await compileFloors(scenarios, floors, database);
    floorRunner = pgliteFloor(database);
    // PGlite's WebAssembly is compiled as it runs: fast only once warm, as it is in the server by now.
    for (const statement of floors.values()) await floorRunner.run(statement, 1, Math.max(2, warmup));
    for (const result of results) {
      const statement = floors.get(result.scenario);
      if (!statement) continue;
      result.floor = await measureFloor(floorRunner, statement, result.connections);
      result.percentOfFloor = Math.round((100 * result.rps) / Math.max(1, result.floor.tps));
    }
  }
  if (withFloor && target.kind === 'postgres' && target.url) {
    console.log(`\nCounting statements: ${countRequests} requests per scenario at 1 connection, through a relay`);
    counts.push(...(await countStatements(target.url, scenarios, floors)));
  }

  console.log(`\n${header()}`);
  for (const r of results) {
    console.log(
      line(
        r,
        counts.find((c) => c.scenario === r.scenario),
        databaseInNode,
      ),
    );
  }
  for (const c of counts) {
    const floor =
      c.floorStatementSent === undefined
        ? ''
        : c.floorStatementSent
          ? '; the floor ran one of them'
          : '; the floor ran none of them (its nearest equivalent)';
    console.log(
      `\n${c.scenario}: ${c.statementsPerRequest} statements, ${c.parsesPerRequest} parsed, ${c.roundTripsPerRequest} round trips (${c.emptyRoundTripsPerRequest} of them empty, on the listening connection), per request${floor}`,
    );
    for (const s of c.statements) console.log(`  ${s.perRequest.toFixed(2).padStart(5)} × ${s.text.slice(0, 150)}`);
  }
  const targets = checkTargets(target.kind, scale, scenarios, results, counts);
  console.log();
  for (const t of targets) console.log(`${t.met ? 'met   ' : 'MISSED'} ${t.description}: ${t.actual}`);
  if (!totalParameter) {
    console.log(
      `\nThe server refused \`${TOTAL_PARAMETER}\`: "list by country + total" ran without it (lists count on every request).`,
    );
  }
  const file = values.out
    ? path.resolve(values.out)
    : path.join(serverDir, 'bench', 'results', `${target.label}-${scale}.json`);
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
        parameters: {
          usCountryId: usId,
          q: values.q,
          cursorDepth: CURSOR_DEPTH,
          offsetPage: OFFSET_PAGE,
          customField: customKey,
          totalParameter,
          floor: withFloor,
          countRequests,
        },
        seed: seedTimings,
        results,
        statementCounts: counts,
        floorStatements: Object.fromEntries([...floors].map(([name, s]) => [name, s.text.replace(/\s+/g, ' ')])),
        targets,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nWrote ${path.relative(process.cwd(), file)}`);
} finally {
  await stopServer(server);
  if (httpFloor) await stopServer(httpFloor.process);
  await floorRunner?.close();
  await monitor?.end();
}

/**
 * The HTTP floor of the read scenarios (bench/http-floor.ts) in a process of
 * its own, as the server is: their main statements behind a bare Node.js HTTP
 * server, at `url` + each scenario's path.
 */
async function startHttpFloor(
  databaseUrl: string,
  scenarios: Scenario[],
  floors: Map<string, FloorStatement>,
): Promise<{ process: ChildProcess; url: string; paths: Map<string, string> }> {
  const paths = new Map<string, string>();
  const config: HttpFloorConfig = { databaseUrl, poolSize: SERVER_POOL_SIZE, statements: {} };
  for (const scenario of scenarios.filter((x) => !x.writes)) {
    const statement = floors.get(scenario.name);
    if (!statement) continue;
    const path = `/${paths.size}`;
    paths.set(scenario.name, path);
    config.statements[path] = {
      text: statement.text,
      params: statement.params,
      slots: statement.slots,
      maxId: scale,
      one: scenario.single === true,
    };
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/http-floor.ts'], {
    cwd: serverDir,
    env: { ...process.env, HTTP_FLOOR: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`The HTTP floor exited with code ${code}`)));
  });
  return { process: child, url: `http://127.0.0.1:${port}`, paths };
}

/**
 * Builds each scenario's floor statement with the entity as the bench
 * administrator reads it (custom fields included) and the rows it may read,
 * as the routes do; on a database opened for it when none is given.
 */
async function compileFloors(scenarios: Scenario[], into: Map<string, FloorStatement>, open?: Database) {
  const compiling = open ?? (await openTarget(target));
  try {
    const described = await readerDescription(compiling, companies, benchActor);
    if (readableScope(companies, benchActor)) throw new Error('The bench administrator reads companies within a scope');
    for (const scenario of scenarios) {
      if (scenario.floor) {
        into.set(scenario.name, await scenario.floor({ entity: described, userId: benchUserId, database: compiling }));
      }
    }
  } finally {
    if (!open) await compiling.close();
  }
}

/** True when the server answers this list query with 2xx (a parameter it does not know answers 400). */
async function accepted(url: string, headers: Record<string, string>, query: string): Promise<boolean> {
  const response = await fetch(`${url}${api}?${query}`, { headers });
  await response.arrayBuffer();
  return response.ok;
}

/**
 * Waits (30 s at most) until no statement runs on the bench database: a scenario whose requests take
 * seconds leaves some running in PostgreSQL after autocannon has stopped, which would slow the next one.
 */
async function settled(client: pg.Client, name: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
       where datname = $1 and state = 'active' and pid <> pg_backend_pid() and backend_type = 'client backend'`,
      [name],
    );
    if ((rows[0]?.n ?? 0) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** An API run with the CPU the server and the bench database's backends used for it. */
async function measureWithCpu(url: string, scenario: Scenario, connections: number, seconds: number) {
  const nodeBefore = processCpuMs(server.pid);
  const pgBefore = monitor && databaseName ? await databaseBackendsCpu(monitor, databaseName) : undefined;
  const allBefore = monitor ? allPostgresCpuMs() : undefined;
  const result = await measure(url, scenario, connections, seconds);
  const nodeAfter = processCpuMs(server.pid);
  const pgAfter = monitor && databaseName ? await databaseBackendsCpu(monitor, databaseName) : undefined;
  const allAfter = monitor ? allPostgresCpuMs() : undefined;
  const perRequest = (ms: number | undefined) =>
    ms === undefined || result.requests === 0 ? undefined : Math.round((100 * ms) / result.requests) / 100;
  result.nodeCpuMsPerRequest = perRequest(
    nodeBefore === undefined || nodeAfter === undefined ? undefined : nodeAfter - nodeBefore,
  );
  if (pgBefore && pgAfter) result.pgCpuMsPerRequest = perRequest(backendsCpuDelta(pgBefore, pgAfter));
  if (allBefore !== undefined && allAfter !== undefined) result.pgAllCpuMsPerRequest = perRequest(allAfter - allBefore);
  return result;
}

/** A floor run after its warm-up, with the database's CPU per execution. */
async function measureFloor(runner: FloorRunner, statement: FloorStatement, connections: number): Promise<FloorResult> {
  if (warmup > 0) await runner.run(statement, connections, warmup);
  const ownBefore = process.cpuUsage();
  const pgBefore = monitor && databaseName ? await databaseBackendsCpu(monitor, databaseName) : undefined;
  const allBefore = monitor ? allPostgresCpuMs() : undefined;
  const run = await runner.run(statement, connections, duration);
  const own = process.cpuUsage(ownBefore);
  const pgAfter = monitor && databaseName ? await databaseBackendsCpu(monitor, databaseName) : undefined;
  const allAfter = monitor ? allPostgresCpuMs() : undefined;
  const perTx = (ms: number) => (run.transactions === 0 ? undefined : Math.round((100 * ms) / run.transactions) / 100);
  const at = (p: number) =>
    round(run.latencies[Math.min(run.latencies.length - 1, Math.floor((p / 100) * run.latencies.length))] ?? 0);
  return {
    tps: Math.round(run.transactions / run.seconds),
    transactions: run.transactions,
    p50: at(50),
    p90: at(90),
    failures: run.failures,
    // On PGlite the database is this process.
    dbCpuMsPerTx:
      pgBefore && pgAfter
        ? perTx(backendsCpuDelta(pgBefore, pgAfter))
        : target.kind === 'pglite'
          ? perTx((own.user + own.system) / 1000)
          : undefined,
    pgAllCpuMsPerTx: allBefore !== undefined && allAfter !== undefined ? perTx(allAfter - allBefore) : undefined,
  };
}

/**
 * Statements per request, counted exactly from outside the server: a second
 * server process pointed at PostgreSQL through a relay that reads the
 * protocol, sent requests one at a time (the timed runs go direct).
 */
async function countStatements(
  databaseUrl: string,
  scenarios: Scenario[],
  floors: Map<string, FloorStatement>,
): Promise<StatementCount[]> {
  const relay = await startStatementCounter(databaseUrl);
  const countingPort = await freePort();
  const countingBase = `http://127.0.0.1:${countingPort}`;
  server = startServer(countingPort, relay.url);
  const counted: StatementCount[] = [];
  try {
    await waitUntilReady(countingBase, server);
    for (const scenario of scenarios) {
      await measure(countingBase, scenario, 1, undefined, COUNT_WARMUP_REQUESTS);
      relay.reset();
      const result = await measure(countingBase, scenario, 1, undefined, countRequests);
      const c = relay.counts();
      const floor = floors.get(scenario.name);
      const per = (n: number) => Math.round((100 * n) / Math.max(1, result.requests)) / 100;
      counted.push({
        scenario: scenario.name,
        requests: result.requests,
        statementsPerRequest: per(c.statements),
        roundTripsPerRequest: per(c.roundTrips),
        emptyRoundTripsPerRequest: per(c.emptyRoundTrips),
        parsesPerRequest: per(c.parses),
        floorStatementSent: floor === undefined ? undefined : c.digests.has(textDigest(floor.text)),
        statements: [...c.texts].sort((a, b) => b[1] - a[1]).map(([text, n]) => ({ perRequest: per(n), text })),
      });
    }
  } finally {
    await stopServer(server);
    await relay.close();
  }
  return counted;
}

/**
 * The real server in a process of its own, so that it does not share an event
 * loop with autocannon; on PostgreSQL at `databaseUrl` (the bench database, or
 * the counting relay in front of it).
 */
function startServer(port: number, databaseUrl: string | undefined): ChildProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: target.dataDir,
    // Request logs would measure the terminal; warnings and errors still show.
    LOG_LEVEL: 'warn',
  };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  // BENCH_SERVER_ARGS: Node options for the server only, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" (it stops on SIGTERM).
  const nodeArgs = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
  return spawn(process.execPath, [...nodeArgs, ...serverCommand(serverRoot ?? serverDir)], {
    cwd: serverRoot ?? serverDir,
    env,
    stdio: 'inherit',
  });
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
  const given = await database.rows(
    sql`update ${sql.identifier(companies.table)}
      set custom = custom || jsonb_build_object(${field.key}::text, (${values}::text[])[1 + id % ${CUSTOM_VALUES.length}])
      where not custom ? ${field.key} returning id`,
  );
  // Every company updated leaves a dead row behind: scans would read them all until a vacuum (the seed's ran before).
  if (given.length > 0) await database.db.execute(sql`vacuum (analyze) ${sql.identifier(companies.table)}`);
  return field.key;
}
