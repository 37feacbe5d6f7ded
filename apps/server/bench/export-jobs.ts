/**
 * Export jobs in the server (issue 14): the time and the server's peak memory
 * of one export job of all the companies of the bench database.
 *
 *   DATABASE_URL=... node --import tsx bench/export-jobs.ts --scale N [--formats csv,xlsx]
 *
 * On PostgreSQL only. On the bench database at scale N (`dp_bench_<N>` on
 * DATABASE_URL's server, seeded when it holds fewer rows), each export
 * (CSV and XLSX, all fields and 8 columns) runs in a server of its own,
 * started as `npm start` runs it, so that each peak is that export's alone:
 * `POST /api/v1/companies/exports`, then `GET /api/v1/exports/{id}` every
 * 200 ms until it has succeeded. Prints the job's time and rows/s, and the
 * server's resident memory when ready and at its peak (VmHWM, Linux).
 * bench/export.ts compares the export's own speed with `COPY` in one process.
 * Not a test: nothing here passes or fails.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { memoryOf } from './cpu.ts';
import { benchAccount, benchTarget, ensureBenchAccount, ensureSeeded, openTarget } from './prepare.ts';
import { startBenchServer } from './server-process.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '100000' },
    formats: { type: 'string', default: 'csv,xlsx' },
  },
});
const scale = Number(values.scale);
const formats = values.formats.split(',').filter((format) => format === 'csv' || format === 'xlsx');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** bench/export.ts's narrow export: these fields and the ID, revenue as its amount and currency (9 columns). */
const EIGHT = 'name,city,industry,stage,employees,revenue,hqCountryId';

if (!process.env.DATABASE_URL) throw new Error('bench/export-jobs.ts runs on PostgreSQL: set DATABASE_URL');
const target = await benchTarget(scale, process.env.DATABASE_URL);
const database = await openTarget(target);
try {
  await ensureBenchAccount(database, target.dataDir);
  await ensureSeeded(database, scale, (line) => console.log(line));
} finally {
  await database.close();
}

const results = [];
for (const format of formats) {
  for (const select of [undefined, EIGHT]) {
    // The export's file goes to a directory of the run's own.
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-export-jobs-'));
    const server = await startBenchServer({
      root,
      dataDir,
      admin: benchAccount,
      env: { LOG_LEVEL: 'warn', DATABASE_URL: target.url as string },
    });
    try {
      const login = await fetch(`${server.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(benchAccount),
      });
      const { accessToken } = (await login.json()) as { accessToken: string };
      const auth = { authorization: `Bearer ${accessToken}` };
      const ready = memoryOf(server.pid);
      const started = performance.now();
      const answer = await fetch(`${server.url}/api/v1/companies/exports`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ format, ...(select ? { select } : {}) }),
      });
      if (answer.status !== 202) throw new Error(`The export answered ${answer.status}: ${await answer.text()}`);
      const { id } = (await answer.json()) as { id: number };
      let job: { status: string; rowsWritten: number; bytes: number };
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        job = (await (await fetch(`${server.url}/api/v1/exports/${id}`, { headers: auth })).json()) as typeof job;
        if (job.status !== 'queued' && job.status !== 'running') break;
      }
      const seconds = (performance.now() - started) / 1000;
      if (job.status !== 'succeeded') throw new Error(`The export ended ${job.status}: ${JSON.stringify(job)}`);
      const memory = memoryOf(server.pid);
      const result = {
        format,
        columns: select ? 'ID + 8' : 'all fields',
        rows: job.rowsWritten,
        fileMb: Math.round((job.bytes / 1024 / 1024) * 10) / 10,
        seconds: Math.round(seconds * 10) / 10,
        rowsPerSecond: Math.round(job.rowsWritten / seconds),
        serverReadyMb: ready?.rssMb ?? null,
        serverPeakMb: memory?.peakMb ?? null,
      };
      console.log(JSON.stringify(result));
      results.push(result);
    } finally {
      server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }
}
console.log(
  JSON.stringify(
    {
      date: new Date().toISOString(),
      database: target.kind,
      scale,
      machine: { cpus: os.cpus().length, loadAverage1m: os.loadavg()[0] },
      results,
    },
    null,
    2,
  ),
);
