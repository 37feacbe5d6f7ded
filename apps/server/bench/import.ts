/**
 * Import under load: how long one import takes, and how a list request from
 * someone else fares meanwhile.
 *
 *   node --import tsx bench/import.ts [--rows 10000] [--server-root <dir>] [--file bomb.xlsx]
 *
 * Starts the server of `--server-root` (this package by default: point it
 * at a worktree of an older commit to compare) as a child process on a fresh
 * PGlite data directory (or DATABASE_URL's server), imports `--rows`
 * companies from a CSV (or posts `--file` as it is), and meanwhile sends
 * `GET /api/v1/companies?pageSize=1` one after another. Prints the import's
 * status and time and the GETs' count, p50 and max latency.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startBenchServer } from './server-process.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000' },
    'server-root': { type: 'string', default: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..') },
    file: { type: 'string' },
  },
});
const email = 'bench-import@bench.example';
const password = 'a long bench passphrase';

/** A port free now (older servers print the port they were given, so 0 will not do). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function csvOf(rows: number): string {
  const lines = ['Name,City,HQ country,Revenue,Revenue currency,Tags'];
  for (let i = 0; i < rows; i++) lines.push(`Bench company ${i},City ${i % 100},France,${1000 + i},EUR,a; b`);
  return lines.join('\n');
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

const dataDir = await mkdtemp(path.join(tmpdir(), 'dp-bench-import-'));
const server = await startBenchServer({
  root: values['server-root'],
  dataDir,
  admin: { email, password },
  port: await freePort(),
});
try {
  const login = await fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const authorization = `Bearer ${accessToken}`;
  const [name, bytes] = values.file
    ? [path.basename(values.file), await readFile(values.file)]
    : ['companies.csv', Buffer.from(csvOf(Number(values.rows)))];
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  // Warm the list route first, so that its first compile is not counted.
  await (await fetch(`${server.url}/api/v1/companies?pageSize=1`, { headers: { authorization } })).arrayBuffer();

  const started = performance.now();
  let answered: { status: number; body: string; ms: number } | undefined;
  const importing = fetch(`${server.url}/api/v1/companies/import`, {
    method: 'POST',
    headers: { authorization },
    body: form,
  }).then(async (answer) => {
    answered = { status: answer.status, body: (await answer.text()).slice(0, 300), ms: performance.now() - started };
  });
  const latencies: number[] = [];
  while (!answered) {
    const sent = performance.now();
    const answer = await fetch(`${server.url}/api/v1/companies?pageSize=1`, { headers: { authorization } });
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`GET answered ${answer.status}`);
    latencies.push(performance.now() - sent);
  }
  await importing;
  const sorted = [...latencies].sort((a, b) => a - b);
  const result = answered as { status: number; body: string; ms: number };
  console.log(
    JSON.stringify(
      {
        server: values['server-root'],
        file: name,
        bytes: bytes.length,
        importStatus: result.status,
        importMs: Math.round(result.ms),
        answer: result.body,
        concurrentGets: latencies.length,
        getP50Ms: Math.round(percentile(sorted, 0.5)),
        getMaxMs: Math.round(sorted.at(-1) ?? 0),
      },
      null,
      2,
    ),
  );
} finally {
  server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
