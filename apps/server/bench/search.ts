/**
 * `node --import tsx bench/search.ts --scale N [--requests 200] [--terms cap,ltd,...]`
 *
 * Global search (`GET /api/v1/search`, decision 0029) at one connection:
 * seeds (or reuses) the bench database of scale N (prepare.ts: N companies,
 * N contacts, N/5 deals, N/10 investors, N/50 firms, N/25 funds), starts the
 * real server as a child process, signs in as the bench administrator
 * (every record type searched) and sends each term's requests one after
 * another, timing each answer. Prints p50, p99 and max per term against
 * issue 16's targets (p50 under 30 ms, p99 under 100 ms), and the machine's
 * load average, which moves every figure on a shared machine.
 * Terms: common syllables and words, rare ones (a seeded company's own
 * name, a word no record holds) and typos. Not a test: nothing here fails.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { companies } from '@data-platform/shared/entities/companies';
import { sql } from 'drizzle-orm';
import { freePort, signIn, waitUntilReady } from './http-runs.ts';
import { benchTarget, ensureBenchAccount, ensureSeeded, openTarget } from './prepare.ts';
import { serverCommand } from './server-process.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1000' },
    requests: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '10' },
    terms: { type: 'string' },
  },
});
const scale = Number(values.scale);
const requests = Number(values.requests);
const warmup = Number(values.warmup);
const log = (line: string) => console.log(line);

/** Common (a syllable of many names, a legal form), rare (no match) and misspelt. */
const defaultTerms = ['cap', 'ltd', 'nova', 'partners', 'a', 'zzqxv', 'sequioa', 'capitl', 'parnters'];
const TARGET_P50_MS = 30;
const TARGET_P99_MS = 100;

const target = await benchTarget(scale, process.env.DATABASE_URL);
const database = await openTarget(target);
await ensureSeeded(database, scale, log);
await ensureBenchAccount(database, target.dataDir);
// A seeded company's own name: a term only it (or a few) hold.
const [one] = await database.rows<{ name: string }>(
  sql`select name from ${sql.identifier(companies.table)} where id = ${Math.max(1, Math.floor(scale / 3))}`,
);
await database.close();
const terms = values.terms ? values.terms.split(',').filter((t) => t !== '') : [...defaultTerms, one?.name ?? 'acme'];

const port = await freePort();
const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: target.dataDir };
env.LOG_LEVEL = 'warn';
if (target.url) env.DATABASE_URL = target.url;
else delete env.DATABASE_URL;
const server = spawn(process.execPath, serverCommand(path.resolve(import.meta.dirname, '..')), {
  cwd: path.resolve(import.meta.dirname, '..'),
  env,
  stdio: 'inherit',
});
const url = `http://127.0.0.1:${port}`;
try {
  await waitUntilReady(url, server);
  const token = await signIn(url);
  const loadBefore = os.loadavg()[0] ?? 0;
  log(`\nGlobal search, ${target.kind}, scale ${scale}, 1 connection, ${requests} requests per term`);
  log(`${'term'.padEnd(24)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)}  hits  targets`);
  for (const term of terms) {
    const times: number[] = [];
    let hits = 0;
    for (let i = 0; i < warmup + requests; i++) {
      const started = performance.now();
      const response = await fetch(`${url}/api/v1/search?${new URLSearchParams({ q: term })}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = (await response.json()) as { groups?: { hits: unknown[] }[] };
      if (!response.ok) throw new Error(`Searching ${term}: ${response.status} ${JSON.stringify(body)}`);
      if (i >= warmup) times.push(performance.now() - started);
      hits = (body.groups ?? []).reduce((sum, group) => sum + group.hits.length, 0);
    }
    times.sort((a, b) => a - b);
    const at = (share: number) => times[Math.min(times.length - 1, Math.floor(share * times.length))] ?? 0;
    const [p50, p99, max] = [at(0.5), at(0.99), times.at(-1) ?? 0];
    const met = p50 < TARGET_P50_MS && p99 < TARGET_P99_MS ? 'met' : 'MISSED';
    log(
      `${term.slice(0, 24).padEnd(24)} ${p50.toFixed(1).padStart(8)} ${p99.toFixed(1).padStart(8)} ${max.toFixed(1).padStart(8)} ${String(hits).padStart(5)}  ${met}`,
    );
  }
  log(
    `Load average (1 min): ${loadBefore.toFixed(2)} before, ${(os.loadavg()[0] ?? 0).toFixed(2)} after, on ${os.cpus().length} CPUs`,
  );
} finally {
  server.kill('SIGTERM');
}
