import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ExportJob } from '@data-platform/shared/export-jobs';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { LOST_MESSAGE } from '../io/export-jobs.ts';
import { signInWithPermissions } from '../testing/accounts.ts';
import { adminClient, factories, unique } from '../testing/factories.ts';
import {
  type ServerData,
  serverData,
  signInAsAdmin,
  startServerProcess,
  stopServerProcesses,
} from '../testing/server-process.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * Export jobs (`/api/v1/{resource}/exports`, `/api/v1/exports`): the file a
 * job writes is the streamed export's (the same CSV bytes, the same XLSX
 * cells), followed while written, its owner's alone, cancellable, removed
 * when it expires, and failed with its partial file removed when its server
 * stops or dies mid-way.
 */

/** Fetches as a signed-in user of some server. */
type Fetch = (path: string, init?: RequestInit) => Promise<Response>;

const json = { 'content-type': 'application/json' };

async function startExport(
  fetch: Fetch,
  resource: string,
  body: Record<string, unknown>,
): Promise<{ status: number; body: ExportJob & { error?: { code: string; message: string } } }> {
  const answer = await fetch(`/api/v1/${resource}/exports`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as ExportJob };
}

async function jobOf(fetch: Fetch, id: number): Promise<ExportJob> {
  const answer = await fetch(`/api/v1/exports/${id}`);
  if (answer.status !== 200) throw new Error(`GET /api/v1/exports/${id} answered ${answer.status}`);
  return (await answer.json()) as ExportJob;
}

const ended = (job: ExportJob) => !['queued', 'running'].includes(job.status);

/** Polls the job until `until` holds, failing after `timeoutMs`. */
async function waitForExport(
  fetch: Fetch,
  id: number,
  until: (job: ExportJob) => boolean = ended,
  timeoutMs = 120_000,
): Promise<ExportJob> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await jobOf(fetch, id);
    if (until(job)) return job;
    if (Date.now() > deadline) throw new Error(`Export ${id} is still ${job.status}: ${JSON.stringify(job)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Inserts `rows` companies in `city` in one statement (the bulk a slow-enough job needs). */
const bulkCompanies = (city: string, rows: number) =>
  sql`insert into companies (name, city, employees, description)
    select 'Bulk ' || lpad(n::text, 6, '0'), ${city}, n, 'Row "' || n || '", line one' || chr(10) || 'line two'
    from generate_series(1, ${rows}) n`;

/** Rows a job must be slow enough to be seen running, cancelled, stopped. */
const SLOW_ROWS = 60_000;

describe('export jobs', () => {
  let server: TestServer;
  const city = unique('Jobville');
  const slowCity = unique('Slowton');
  const listParams = {
    select: 'name,city,description,revenue,tags,hqCountryId,employees',
    'filter[city][eq]': city,
    sort: '-name',
  };
  const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

  beforeAll(async () => {
    server = await startTestServer();
    const make = factories(adminClient(server));
    await make.company({
      name: 'Acme, "the" Robotics',
      city,
      revenue: { amount: 2500000.5, currency: 'EUR' },
      tags: ['AI', 'Robotics'],
      description: '=HYPERLINK("x")\nsecond line',
    });
    await make.company({ name: 'Été Ümlaut 東京', city, employees: 12 });
    // Past a page of the paged readers (2,000 rows).
    await server.database.rows(bulkCompanies(city, 2500));
    await server.database.rows(bulkCompanies(slowCity, SLOW_ROWS));
  }, 300_000);
  afterAll(async () => {
    await server?.close();
  });

  it("writes the streamed export's CSV bytes, with its type and name; reports rows, total, bytes, rate and expiry", async () => {
    for (const params of [listParams, { select: 'name,employees', sort: 'employees' }]) {
      const started = await startExport(server.fetch, 'companies', { format: 'csv', ...params });
      expect(started.status).toBe(202);
      expect(started.body).toMatchObject({ entity: 'companies', format: 'csv', fileUrl: null });
      expect(['queued', 'running']).toContain(started.body.status);
      const job = await waitForExport(server.fetch, started.body.id);
      expect(job.status).toBe('succeeded');

      const streamed = await server.fetch(`/api/v1/companies/export?format=csv&${query(params)}`);
      const file = await server.fetch(job.fileUrl as string);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe(streamed.headers.get('content-type'));
      expect(file.headers.get('content-disposition')).toBe(streamed.headers.get('content-disposition'));
      const bytes = Buffer.from(await file.arrayBuffer());
      expect(bytes.equals(Buffer.from(await streamed.arrayBuffer()))).toBe(true);
      expect(Number(file.headers.get('content-length'))).toBe(bytes.length);

      const [counted] = await server.database.rows<{ rows: number }>(
        params === listParams
          ? sql`select count(*)::int as rows from companies where city = ${city}`
          : sql`select count(*)::int as rows from companies`,
      );
      const rows = counted?.rows;
      expect(job).toMatchObject({ rowsWritten: rows, rowsTotal: rows, totalExact: true, bytes: bytes.length });
      expect(job.rowsPerSecond).toBeGreaterThan(0);
      expect(job.fileName).toMatch(/^companies-\d{4}-\d{2}-\d{2}\.csv$/);
      const kept = Date.parse(job.expiresAt as string) - Date.parse(job.finishedAt as string);
      expect(kept).toBe(24 * 3600 * 1000);
    }
  }, 300_000);

  it("writes the streamed export's XLSX cells", async () => {
    const started = await startExport(server.fetch, 'companies', { format: 'xlsx', ...listParams });
    const job = await waitForExport(server.fetch, started.body.id);
    expect(job).toMatchObject({ status: 'succeeded', rowsWritten: 2502, fileName: expect.stringMatching(/\.xlsx$/) });
    const cells = async (answer: Response) => {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(await answer.arrayBuffer());
      const rows: unknown[][] = [];
      workbook.worksheets[0]?.eachRow((row) => {
        rows.push(row.values as unknown[]);
      });
      return rows;
    };
    const file = await server.fetch(job.fileUrl as string);
    const streamed = await server.fetch(`/api/v1/companies/export?format=xlsx&${query(listParams)}`);
    expect(file.headers.get('content-type')).toBe(streamed.headers.get('content-type'));
    expect(file.headers.get('content-disposition')).toBe(streamed.headers.get('content-disposition'));
    const written = await cells(file);
    expect(written).toHaveLength(2503);
    expect(written).toEqual(await cells(streamed));
  }, 120_000);

  it("lists the caller's jobs newest first, of one kind of record when asked", async () => {
    const started = await startExport(server.fetch, 'contacts', { format: 'csv' });
    await waitForExport(server.fetch, started.body.id);
    const all = (await (await server.fetch('/api/v1/exports')).json()) as { data: ExportJob[] };
    expect(all.data[0]?.id).toBe(started.body.id);
    const ids = all.data.map((job) => job.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const companies = (await (await server.fetch('/api/v1/exports?entity=companies&limit=2')).json()) as {
      data: ExportJob[];
    };
    expect(companies.data).toHaveLength(2);
    expect(companies.data.every((job) => job.entity === 'companies')).toBe(true);
  }, 120_000);

  it("is its owner's alone: another user, even an exporter of the same records, gets 404", async () => {
    const started = await startExport(server.fetch, 'companies', { format: 'csv', ...listParams });
    const job = await waitForExport(server.fetch, started.body.id);
    const other = await signInWithPermissions(server, ['companies:read', 'companies:export']);
    const asOther: Fetch = (p, init = {}) =>
      server.fetch(p, { ...init, headers: { ...init.headers, authorization: `Bearer ${other.token}` } });
    expect((await asOther(`/api/v1/exports/${job.id}`)).status).toBe(404);
    expect((await asOther(`/api/v1/exports/${job.id}/file`)).status).toBe(404);
    expect((await asOther(`/api/v1/exports/${job.id}/cancel`, { method: 'POST' })).status).toBe(404);
    const theirs = (await (await asOther('/api/v1/exports')).json()) as { data: ExportJob[] };
    expect(theirs.data).toEqual([]);
    // Their own job is theirs: same list, their file.
    const own = await startExport(asOther, 'companies', { format: 'csv', ...listParams });
    expect(own.status).toBe(202);
    const done = await waitForExport(asOther, own.body.id);
    expect((await asOther(done.fileUrl as string)).status).toBe(200);
    expect((await server.fetch(`/api/v1/exports/${done.id}`)).status).toBe(404);
  }, 120_000);

  it('needs the export right and the read scope the streamed export needs; bad parameters are refused before any job', async () => {
    const reader = await signInWithPermissions(server, ['companies:read']);
    const asReader: Fetch = (p, init = {}) =>
      server.fetch(p, { ...init, headers: { ...init.headers, authorization: `Bearer ${reader.token}` } });
    const refused = await startExport(asReader, 'companies', { format: 'csv' });
    expect(refused.status).toBe(403);
    expect((await asReader('/api/v1/exports')).status).toBe(403);
    // Contacts' exporter asks for companies, and for a join of records it may not read.
    const contacts = await signInWithPermissions(server, ['contacts:read', 'contacts:export']);
    const asContacts: Fetch = (p, init = {}) =>
      server.fetch(p, { ...init, headers: { ...init.headers, authorization: `Bearer ${contacts.token}` } });
    expect((await startExport(asContacts, 'companies', { format: 'csv' })).status).toBe(403);
    expect((await asContacts('/api/v1/exports?entity=companies')).status).toBe(403);
    const before = (await (await server.fetch('/api/v1/exports?limit=100')).json()) as { data: ExportJob[] };
    for (const body of [
      { format: 'pdf' },
      { format: 'csv', select: 'name,noSuchField' },
      { format: 'csv', 'filter[nope][eq]': 'x' },
      { format: 'csv', sort: 'noSuchField' },
      { format: 'csv', unknown: 'x' },
    ]) {
      const answer = await startExport(server.fetch, 'companies', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    const after = (await (await server.fetch('/api/v1/exports?limit=100')).json()) as { data: ExportJob[] };
    expect(after.data).toHaveLength(before.data.length);
  }, 120_000);

  it('reports progress while running, refuses a second job meanwhile (409), and a cancel stops it and removes its file', async () => {
    const started = await startExport(server.fetch, 'companies', {
      format: 'xlsx',
      'filter[city][eq]': slowCity,
      sort: 'name',
    });
    expect(started.status).toBe(202);
    const running = await waitForExport(
      server.fetch,
      started.body.id,
      (job) => ended(job) || (job.status === 'running' && job.rowsWritten > 0),
    );
    expect(running).toMatchObject({ status: 'running', totalExact: expect.any(Boolean) });
    expect(running.rowsWritten).toBeLessThan(SLOW_ROWS);
    expect(running.rowsTotal).toBeGreaterThan(0);
    expect(running.bytes).toBeGreaterThan(0);
    expect(running.rowsPerSecond).toBeGreaterThan(0);
    const file = path.join(server.dataDir, 'exports', String(running.id));
    expect(existsSync(file)).toBe(true);

    const second = await startExport(server.fetch, 'companies', { format: 'csv' });
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({
      code: 'export_going',
      message: expect.stringContaining(`${running.id}`),
    });

    const notYet = await server.fetch(`/api/v1/exports/${running.id}/file`);
    expect(notYet.status).toBe(409);

    const cancel = await server.fetch(`/api/v1/exports/${running.id}/cancel`, { method: 'POST' });
    expect(cancel.status).toBe(202);
    const cancelled = await waitForExport(server.fetch, running.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', fileUrl: null, bytes: 0, cancelRequested: false });
    expect(cancelled.rowsWritten).toBeLessThan(SLOW_ROWS);
    expect(existsSync(file)).toBe(false);
    expect((await server.fetch(`/api/v1/exports/${running.id}/file`)).status).toBe(409);
    expect((await server.fetch(`/api/v1/exports/${running.id}/cancel`, { method: 'POST' })).status).toBe(409);
    // Ended: the next one may start.
    const next = await startExport(server.fetch, 'contacts', { format: 'csv' });
    expect(next.status).toBe(202);
    await waitForExport(server.fetch, next.body.id);
  }, 180_000);

  it('an expired file answers 410 and the sweep removes it', async () => {
    const started = await startExport(server.fetch, 'companies', { format: 'csv', ...listParams });
    const job = await waitForExport(server.fetch, started.body.id);
    const file = path.join(server.dataDir, 'exports', String(job.id));
    expect(existsSync(file)).toBe(true);
    await server.database.rows(
      sql`update export_jobs set expires_at = now() - interval '1 second' where id = ${job.id}`,
    );
    const gone = await server.fetch(`/api/v1/exports/${job.id}/file`);
    expect(gone.status).toBe(410);
    expect(((await gone.json()) as { error: { code: string } }).error.code).toBe('export_expired');
    expect(await jobOf(server.fetch, job.id)).toMatchObject({ status: 'succeeded', fileUrl: null });
    await expect.poll(() => existsSync(file), { timeout: 15_000, interval: 200 }).toBe(false);
  }, 120_000);
});

/**
 * A server that stops (SIGTERM) while a job writes marks it failed and
 * removes its partial file; one killed (kill -9) cannot, and the next server
 * marks the job failed once its heartbeat is stale, and removes the file.
 */
describe('an export job when its server stops or dies', () => {
  const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
  let data: ServerData | undefined;
  afterAll(async () => {
    await stopServerProcesses();
    await data?.remove();
  });

  /** The rows a slow job writes, on the server's database (PGlite's before it starts: it holds its files). */
  async function fill(target: ServerData, city: string) {
    const database = await openDatabase(
      target.databaseUrl ? { url: target.databaseUrl } : { dataDir: path.join(target.dataDir, 'pglite') },
    );
    await database.rows(bulkCompanies(city, SLOW_ROWS));
    await database.close();
  }

  async function started(url: string, city: string) {
    const token = await signInAsAdmin(url);
    const fetcher: Fetch = (p, init = {}) =>
      fetch(`${url}${p}`, { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } });
    const job = await startExport(fetcher, 'companies', { format: 'xlsx', 'filter[city][eq]': city });
    expect(job.status).toBe(202);
    const running = await waitForExport(
      fetcher,
      job.body.id,
      (j) => ended(j) || (j.status === 'running' && j.rowsWritten > 0),
    );
    expect(running.status).toBe('running');
    return running;
  }

  it('is failed with its partial file removed: at once on a stop, once its heartbeat is stale after a kill', async () => {
    data = await serverData(kind);
    const city = unique('Stopville');
    if (kind === 'pglite') await fill(data, city);
    const env = { LOG_LEVEL: 'warn', LOG_REQUESTS: 'false' };
    const first = await startServerProcess(data, env);
    if (kind === 'postgres') await fill(data, city);
    const killed = await started(first.url, city);
    const killedFile = path.join(data.dataDir, 'exports', String(killed.id));
    expect(existsSync(killedFile)).toBe(true);
    expect(await first.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });

    const second = await startServerProcess(data, env);
    const token = await signInAsAdmin(second.url);
    const fetcher: Fetch = (p, init = {}) =>
      fetch(`${second.url}${p}`, { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } });
    const failed = await waitForExport(fetcher, killed.id, ended, 60_000);
    expect(failed).toMatchObject({ status: 'failed', message: LOST_MESSAGE, fileUrl: null });
    // Removed just after the row says so.
    await expect.poll(() => existsSync(killedFile), { timeout: 5000, interval: 50 }).toBe(false);

    const stopped = await started(second.url, city);
    const stoppedFile = path.join(data.dataDir, 'exports', String(stopped.id));
    expect(await second.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(existsSync(stoppedFile)).toBe(false);
    const third = await startServerProcess(data, env);
    const thirdToken = await signInAsAdmin(third.url);
    const answer = await fetch(`${third.url}/api/v1/exports/${stopped.id}`, {
      headers: { authorization: `Bearer ${thirdToken}` },
    });
    expect(await answer.json()).toMatchObject({ status: 'failed', message: LOST_MESSAGE });
    await third.stop('SIGTERM');
  }, 400_000);
});
