/**
 * Import jobs' throughput (issue 14): rows per second of one job, the
 * server's peak memory, and how list requests from another user fare meanwhile.
 *
 *   node --import tsx bench/import-jobs.ts [--rows 1000] [--format csv|xlsx] [--mode allOrNothing|skipBadRows]
 *     [--interval 100] [--server-root <dir>] [--copy-first] [--warm N]
 *
 * Starts the server (as `npm start` runs it) as a child process on a fresh PGlite data directory
 * (or DATABASE_URL's server: use a scratch database), with MAX_UPLOAD_BYTES
 * raised to fit the file. Writes a companies file of `--rows` rows (country by
 * ISO code, money with its currency, tags, and a custom picklist whose values
 * are spelled as a spreadsheet would, mapped by the preview's suggestions),
 * uploads it, starts the job and follows it while sending
 * `GET /api/v1/companies?pageSize=50` as another user would, `--interval` ms apart (each followed by a read
 * of the job: the progress bar's). Prints the job's
 * time, rows/s, the server's peak resident memory (VmHWM, Linux), the GETs'
 * count, p50, p99 and max latency. On PostgreSQL it also times `COPY` of the
 * file's values into the same table (`copySeconds`), and of the rows as the job stores them, who created
 * them included (`copyAsStoredSeconds`), for the ratios; with `--copy-first`, also before the job, `COPY` of
 * the file's values into the table as the job finds it (`copyFirstSeconds`), rolled back and vacuumed away
 * before the job starts. `jobSeconds` is the job's own time by the database's clock (its `startedAt` to
 * its `finishedAt`), and `shareOfCopyByJob` the share of `COPY` by that time. With `--warm N`, N jobs of as many other companies run first in the same server
 * (`warmUpSeconds`): the measured job then runs compiled code, as in a server that has imported before.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { ImportJob, ImportPreview } from '@data-platform/shared/imports';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { openDatabase } from '../src/db/client.ts';
import { memoryOf } from './cpu.ts';
import { ensureBenchAccount } from './prepare.ts';
import { startBenchServer } from './server-process.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000' },
    format: { type: 'string', default: 'csv' },
    mode: { type: 'string', default: 'allOrNothing' },
    // Between one list request of the other user (and a read of the job) and the next: a user paging, not a loop.
    interval: { type: 'string', default: '100' },
    // Import jobs of as many other companies before the measured one, in the same server (`warmUpSeconds`).
    warm: { type: 'string', default: '0' },
    // Also time COPY of the file's values before the job, into the tables as the job finds them (`copyFirstSeconds`).
    'copy-first': { type: 'boolean', default: false },
    // The server package run: this one, or a worktree of an older commit to compare with.
    'server-root': { type: 'string', default: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..') },
  },
});
const rows = Number(values.rows);
const root = path.resolve(values['server-root']);
const email = 'bench-import-jobs@bench.example';
const password = 'a long bench passphrase';

/** Node options for the server only, e.g. BENCH_SERVER_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" with BENCH_STOP=SIGTERM. */
const serverNodeArgs = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);

const countries = ['FR', 'DE', 'United States', 'gb', 'Spain'];
const sectors = ['software', 'Software', 'Health care', 'healthcare', 'Other'];

function cellsOf(i: number, first = 0): (string | number)[] {
  return [
    `Bench job company ${first + i}`,
    `City ${i % 100}`,
    countries[i % 5] as string,
    1000 + i,
    'EUR',
    'a; b',
    sectors[i % 5] as string,
  ];
}
/** The custom picklist's label, new on each run (a bench database is reused). */
const sectorLabel = `Sector ${Date.now().toString(36)}`;
const headings = ['Name', 'City', 'Country', 'Revenue', 'Revenue currency', 'Tags', sectorLabel];

/** The file of `rows` companies, named from `first` on (a warm-up's file names other companies than the measured one). */
async function fileOf(format: string, first = 0): Promise<{ name: string; bytes: Buffer }> {
  if (format === 'xlsx') {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Companies');
    sheet.addRow(headings);
    for (let i = 0; i < rows; i++) sheet.addRow(cellsOf(i, first));
    return { name: 'bench.xlsx', bytes: Buffer.from(await workbook.xlsx.writeBuffer()) };
  }
  const lines = [headings.join(',')];
  for (let i = 0; i < rows; i++) lines.push(cellsOf(i, first).join(','));
  return { name: 'bench.csv', bytes: Buffer.from(`${lines.join('\r\n')}\r\n`) };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/** What the job stores for the file's spellings: the country's ISO code, the custom picklist's option. */
const countryCodes: Record<string, string> = { FR: 'FR', DE: 'DE', 'United States': 'US', gb: 'GB', Spain: 'ES' };
const sectorOptions: Record<string, string> = {
  software: 'Software & IT',
  Software: 'Software & IT',
  'Health care': 'Health care',
  healthcare: 'Health care',
  Other: 'Other',
};

/**
 * The floor, on PostgreSQL: `COPY` of the file's values as the job stores
 * them (name, city, country id, revenue and its currency, tags, the custom
 * picklist's value) into the same `companies` table, with its indexes and
 * triggers, in a transaction rolled back so that the table stays as the job
 * left it. With `asStored`, the rows as the job stores them: who created and
 * last updated each too (two foreign keys checked per row). What COPY does not
 * do and the job does: read the file's text, match the countries and options,
 * check each row, write each record's history entry, the job's ledger and its
 * progress.
 */
async function copySeconds(key: string, asStored: boolean): Promise<number | null> {
  if (!process.env.DATABASE_URL) return null;
  const { from } = await import('pg-copy-streams');
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const writerId = (await client.query<{ id: string }>('select id from users where email = $1', [email])).rows[0]?.id;
    const writer = asStored ? `,${writerId},${writerId}` : '';
    const countries = await client.query<{ id: string; iso2: string }>('select id, iso2 from countries');
    const countryId = new Map(countries.rows.map((row) => [row.iso2, row.id]));
    const lines: string[] = [];
    for (let i = 0; i < rows; i++) {
      const [name, city, country, revenue, currency, , sector] = cellsOf(i);
      const custom = JSON.stringify({ [key]: sectorOptions[sector as string] }).replace(/"/g, '""');
      const id = countryId.get(countryCodes[country as string] as string) ?? '';
      lines.push(`${name},${city},${id},${revenue},${currency},"{a,b}","${custom}"${writer}\n`);
    }
    await client.query('begin');
    const started = performance.now();
    const stream = client.query(
      from(
        `copy companies (name, city, hq_country_id, revenue, revenue_currency, tags, custom${asStored ? ', created_by_id, updated_by_id' : ''}) from stdin (format csv)`,
      ),
    );
    await new Promise<void>((resolve, reject) => {
      stream.on('finish', resolve);
      stream.on('error', reject);
      for (let i = 0; i < lines.length; i += 10_000) stream.write(lines.slice(i, i + 10_000).join(''));
      stream.end();
    });
    const seconds = (performance.now() - started) / 1000;
    await client.query('rollback');
    return seconds;
  } finally {
    await client.end();
  }
}

/**
 * The floor before the job: `COPY` of the file's values into the tables as the job will find them (its names'
 * words not stored yet, the table as large as before), rolled back, then the dead rows vacuumed away and the
 * tables analyzed so that the job starts where the floor did. Not for comparing with a server older than
 * migration 0021: the vacuumed `search_words` reads as one row to the planner, and the old trigger then hashed
 * the whole table once for each name (minutes a batch). The floors after the job load the same rows into a table that already holds
 * them: larger, but every word of the names already stored.
 */
async function copyFirstSeconds(key: string): Promise<number | null> {
  const seconds = await copySeconds(key, false);
  if (seconds === null) return null;
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query('vacuum analyze companies, search_words');
  } finally {
    await client.end();
  }
  return seconds;
}

/** Whether the database has a users table with someone in it. */
async function hasUsers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const table = await client.query<{ found: boolean }>(`select to_regclass('users') is not null as found`);
    if (!table.rows[0]?.found) return false;
    return (await client.query('select 1 from users limit 1')).rowCount === 1;
  } finally {
    await client.end();
  }
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-import-jobs-'));
// Into a PostgreSQL database that already has users (the 1,000,000 companies of `npm run bench`, copied), the
// server's first start makes no administrator: the bench makes its own, as `npm run bench` does.
if (process.env.DATABASE_URL && (await hasUsers(process.env.DATABASE_URL))) {
  const database = await openDatabase({ url: process.env.DATABASE_URL, poolSize: 1 });
  try {
    await ensureBenchAccount(database, dataDir, { email, password });
  } finally {
    await database.close();
  }
}
const server = await startBenchServer({
  root,
  dataDir,
  admin: { email, password },
  env: { MAX_UPLOAD_BYTES: String(2 * 1024 * 1024 * 1024) },
  nodeArgs: serverNodeArgs,
  // BENCH_STOP=SIGTERM lets the server end on its own (e.g. to write a --cpu-prof profile).
  stopSignal: process.env.BENCH_STOP === 'SIGTERM' ? 'SIGTERM' : 'SIGKILL',
});
try {
  const login = await fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const auth = { authorization: `Bearer ${accessToken}` };
  const custom = await fetch(`${server.url}/api/v1/custom-data`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      entity: 'companies',
      name: sectorLabel,
      type: 'select',
      options: ['Software & IT', 'Health care', 'Other'],
    }),
  });
  if (!custom.ok) throw new Error(`Custom field: ${custom.status} ${await custom.text()}`);
  const { key } = (await custom.json()) as { key: string };
  const copyFirst = values['copy-first'] ? await copyFirstSeconds(key) : null;
  /** Uploads a file, starts its job and follows it (the other user listing meanwhile) to its end. */
  const importFile = async (file: { name: string; bytes: Buffer }) => {
    const form = new FormData();
    form.append('file', new Blob([file.bytes]), file.name);
    const uploadStarted = performance.now();
    const uploaded = await fetch(`${server.url}/api/v1/imports/uploads?entity=companies`, {
      method: 'POST',
      headers: auth,
      body: form,
    });
    const preview = (await uploaded.json()) as ImportPreview;
    if (uploaded.status !== 201) throw new Error(`Upload: ${uploaded.status} ${JSON.stringify(preview)}`);
    const uploadSeconds = (performance.now() - uploadStarted) / 1000;
    const valueMapping = Object.fromEntries(
      preview.picklists.map((p) => [p.field, Object.fromEntries(p.values.map((v) => [v.value, v.option]))]),
    );
    const started = performance.now();
    const start = await fetch(`${server.url}/api/v1/imports`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        entity: 'companies',
        uploadId: preview.uploadId,
        mapping: preview.columns.map((c) => c.target),
        values: valueMapping,
        mode: values.mode,
      }),
    });
    let job = (await start.json()) as ImportJob;
    if (start.status !== 202) throw new Error(`Start: ${start.status} ${JSON.stringify(job)}`);
    const latencies: number[] = [];
    /** When the job was first seen writing: an all-or-nothing job checks every row before (to the next poll). */
    let writingSeen: number | null = null;
    while (!['succeeded', 'failed', 'cancelled', 'rolledBack'].includes(job.status)) {
      if (writingSeen === null && job.status === 'writing') writingSeen = performance.now();
      const t = performance.now();
      const list = await fetch(`${server.url}/api/v1/companies?pageSize=50`, { headers: auth });
      await list.arrayBuffer();
      latencies.push(performance.now() - t);
      job = (await (await fetch(`${server.url}/api/v1/imports/${job.id}`, { headers: auth })).json()) as ImportJob;
      await new Promise((resolve) => setTimeout(resolve, Number(values.interval)));
    }
    const seconds = (performance.now() - started) / 1000;
    return { job, seconds, uploadSeconds, latencies, checkingSeconds: writingSeen && (writingSeen - started) / 1000 };
  };
  // Warm-up jobs first, each of other companies: the measured job then runs in a server whose import code is compiled.
  const warmSeconds: number[] = [];
  for (let w = 1; w <= Number(values.warm); w++) {
    const warm = await importFile(await fileOf(values.format as string, w * 10_000_000));
    if (warm.job.status !== 'succeeded') throw new Error(`Warm-up job: ${warm.job.status}`);
    warmSeconds.push(Math.round(warm.seconds * 100) / 100);
  }
  const file = await fileOf(values.format as string);
  const { job, seconds, uploadSeconds, latencies, checkingSeconds } = await importFile(file);
  latencies.sort((a, b) => a - b);
  const copy = await copySeconds(key, false);
  const copyAsStored = await copySeconds(key, true);
  const share = (floor: number | null, of = seconds) =>
    floor === null ? null : `${Math.round((floor / of) * 1000) / 10} %`;
  // The job's own time by the database's clock, from its start (after its claim) to its end: without the start
  // request, the claim, and the wait until this bench's next poll sees the end (up to a list request and a poll).
  const jobSeconds =
    job.startedAt && job.finishedAt ? (Date.parse(job.finishedAt) - Date.parse(job.startedAt)) / 1000 : null;
  console.log(
    JSON.stringify(
      {
        database: process.env.DATABASE_URL ? 'postgres' : 'pglite',
        format: values.format,
        mode: values.mode,
        rows,
        fileMb: Math.round((file.bytes.length / 1024 / 1024) * 10) / 10,
        uploadAndPreviewSeconds: Math.round(uploadSeconds * 10) / 10,
        status: job.status,
        created: job.created,
        failed: job.failed,
        seconds: Math.round(seconds * 10) / 10,
        checkingSeconds: checkingSeconds === null ? null : Math.round(checkingSeconds * 10) / 10,
        warmUpSeconds: warmSeconds,
        rowsPerSecond: Math.round(rows / seconds),
        copyFirstSeconds: copyFirst === null ? null : Math.round(copyFirst * 100) / 100,
        shareOfCopyFirst: share(copyFirst),
        copySeconds: copy === null ? null : Math.round(copy * 100) / 100,
        shareOfCopy: share(copy),
        copyAsStoredSeconds: copyAsStored === null ? null : Math.round(copyAsStored * 100) / 100,
        shareOfCopyAsStored: share(copyAsStored),
        jobSeconds,
        shareOfCopyByJob: jobSeconds === null ? null : share(copy, jobSeconds),
        serverPeakMb: memoryOf(server.pid)?.peakMb ?? null,
        listRequests: latencies.length,
        listP50Ms: Math.round(percentile(latencies, 0.5)),
        listP99Ms: Math.round(percentile(latencies, 0.99)),
        listMaxMs: Math.round(latencies.at(-1) ?? 0),
      },
      null,
      2,
    ),
  );
} finally {
  server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
