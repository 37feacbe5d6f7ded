import { existsSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { IMPORT_UPLOAD_HOURS } from '@data-platform/shared/imports';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { forgetOldUploads, removeStrayUploads } from '../io/import-jobs.ts';
import { signInWithPermissions } from '../testing/accounts.ts';
import { adminClient, type Factories, factories, unique } from '../testing/factories.ts';
import { getImport, importAll, startImport, uploadImport, waitForImport } from '../testing/import-jobs.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * Import jobs (issue 14): a file imported in batches by the server, followed
 * by its progress; all or nothing, or bad rows set aside for download;
 * duplicates in the file and against stored records; cancel; undo.
 */
let server: TestServer;
let make: Factories;

beforeAll(async () => {
  server = await startTestServer();
  make = factories(adminClient(server));
});
afterAll(async () => {
  await server?.close();
});

async function companiesIn(city: string): Promise<Record<string, unknown>[]> {
  const answer = await server.fetch(
    `/api/v1/companies?filter[city][eq]=${encodeURIComponent(city)}&sort=name&pageSize=1000`,
  );
  return ((await answer.json()) as { data: Record<string, unknown>[] }).data;
}

/** A unique name as it may stand in a domain. */
const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');

function companiesCsv(city: string, count: number, row: (i: number) => string = (i) => `Co ${i},${city},${i}`): string {
  const lines = ['Name,City,Employees'];
  for (let i = 1; i <= count; i++) lines.push(row(i));
  return `${lines.join('\r\n')}\r\n`;
}

describe('import jobs', () => {
  it('imports every row in batches and reports progress and the result', async () => {
    const city = unique('Jobville');
    const job = await importAll(server, 'companies', 'many.csv', companiesCsv(city, 1200));
    expect(job).toMatchObject({
      status: 'succeeded',
      mode: 'allOrNothing',
      rowsTotal: 1200,
      rowsChecked: 1200,
      rowsDone: 1200,
      created: 1200,
      updated: 0,
      failed: 0,
      problems: [],
      recovery: null,
      badRowsUrl: null,
    });
    expect(job.finishedAt).not.toBeNull();
    expect((await companiesIn(city)).length).toBe(1000);
    const events = await adminClient(server).list('/api/v1/audit-events', {
      'filter[type][eq]': 'recordsImported',
      sort: '-createdAt',
      pageSize: 1,
    });
    expect(events.body.data[0]).toMatchObject({ details: `companies: 1200 created, 0 updated (import ${job.id})` });
  });

  it('lets other requests in between its batches while it writes', async () => {
    const city = unique('Busyville');
    const uploaded = await uploadImport(server, 'companies', 'busy.csv', companiesCsv(city, 20_000));
    const started = await startImport(server, {
      entity: 'companies',
      uploadId: uploaded.body.uploadId,
      mapping: uploaded.body.columns.map((c) => c.target),
      mode: 'skipBadRows',
    });
    await waitForImport(server, started.body.id, (job) => job.status === 'writing' || job.status === 'succeeded');
    // Reads answered while the job is still writing: a job holding the database for its duration allows none.
    let readsWhileWriting = 0;
    for (;;) {
      const read = await server.fetch('/api/v1/companies?pageSize=20');
      expect(read.status).toBe(200);
      await read.arrayBuffer();
      const { body: job } = await getImport(server, started.body.id);
      if (job.status !== 'writing') {
        expect(job).toMatchObject({ status: 'succeeded', created: 20_000 });
        break;
      }
      // Past its last batch the job is still writing for a moment (its audit event).
      if (job.rowsDone < 20_000) readsWhileWriting += 1;
    }
    expect(readsWhileWriting).toBeGreaterThan(2);
  });

  it('all or nothing: bad rows import nothing, leave no trace, are each named by row and field, and offered', async () => {
    const city = unique('Nothingville');
    const csv = companiesCsv(city, 1200, (i) =>
      i === 650 ? `,${city},lots` : i === 1150 ? `Co ${i},${city},-4` : `Co ${i},${city},${i}`,
    );
    const [before] = await server.database.rows<{ last: number | string | null }>(
      sql`select max(id) as last from record_history`,
    );
    const job = await importAll(server, 'companies', 'bad.csv', csv);
    expect(job).toMatchObject({ status: 'failed', created: 0, rowsTotal: 1200, rowsChecked: 1200, failed: 2 });
    expect(job).toMatchObject({ problemCount: 3 });
    expect(job.message).toMatch(/^2 of 1200 rows cannot be imported; nothing was imported/);
    expect(job.problems).toEqual([
      { row: 651, field: 'name', message: 'Required' },
      { row: 651, field: 'employees', message: expect.any(String) },
      { row: 1151, field: 'employees', message: expect.any(String) },
    ]);
    // Rows are checked as they are written: the first batch (rows 2 to 101) was written, then taken back.
    expect(job.undo?.deleted).toBeGreaterThanOrEqual(100);
    expect(await companiesIn(city)).toEqual([]);
    // Taken back before it finished, the import leaves no entry in any record's history (none is restorable).
    const entries = await server.database.rows<{ n: number | string }>(
      sql`select count(*) as n from record_history where id > ${Number(before?.last ?? 0)} and entity = 'companies'`,
    );
    expect(Number(entries[0]?.n)).toBe(0);
    const bad = await server.fetch(job.badRowsUrl as string);
    expect(bad.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await bad.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines).toEqual([
      'Name,City,Employees,Error',
      `,${city},lots,name: Required; employees: ${job.problems[1]?.message}`,
      `Co 1150,${city},-4,employees: ${job.problems[2]?.message}`,
    ]);
  });

  it('all or nothing: a bad row in the first batch writes nothing at all', async () => {
    const city = unique('Neverville');
    const csv = companiesCsv(city, 300, (i) => (i === 3 ? `,${city},3` : `Co ${i},${city},${i}`));
    const job = await importAll(server, 'companies', 'early.csv', csv);
    expect(job).toMatchObject({ status: 'failed', created: 0, rowsChecked: 300, failed: 1, rowsDone: 0 });
    expect(job.problems).toEqual([{ row: 4, field: 'name', message: 'Required' }]);
    expect(job.undo).toMatchObject({ deleted: 0, restored: 0, keptCount: 0 });
    expect(await companiesIn(city)).toEqual([]);
  });

  it('skip bad rows: good rows are imported, bad ones and repeats within the file set aside with why', async () => {
    const city = unique('Skipville');
    const host = slug(city);
    const csv = [
      'Name,Website,City',
      `Alpha,https://alpha-${host}.example,${city}`,
      `,https://nameless-${host}.example,${city}`,
      `Alpha again,http://www.alpha-${host}.example/team,${city}`,
      `Beta,https://beta-${host}.example,${city}`,
    ].join('\n');
    const job = await importAll(server, 'companies', 'skip.csv', csv, {
      mode: 'skipBadRows',
      duplicates: { key: 'domain', action: 'skip' },
    });
    expect(job).toMatchObject({ status: 'succeeded', created: 2, failed: 2, duplicatesInFile: 1 });
    expect((await companiesIn(city)).map((c) => c.name)).toEqual(['Alpha', 'Beta']);
    const text = await (await server.fetch(job.badRowsUrl as string)).text();
    const lines = text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/name: /);
    expect(lines[2]).toMatch(/domain: The same domain as row 2/);
  });

  it('matches stored records on the key picked: skip, update, or create', async () => {
    const city = unique('Dupville');
    const stored = await make.company({
      name: unique('Stored'),
      website: `https://dup-${slug(city)}.example`,
      city,
      employees: 5,
    });
    const csv = `Name,Website,City,Employees\n${String(stored.name)},https://www.dup-${slug(city)}.example,${city},50\n`;
    const skipped = await importAll(server, 'companies', 'd.csv', csv, {
      duplicates: { key: 'domain', action: 'skip' },
    });
    expect(skipped).toMatchObject({ status: 'succeeded', created: 0, skipped: 1, duplicatesStored: 1 });
    const updated = await importAll(server, 'companies', 'd.csv', csv, {
      duplicates: { key: 'domain', action: 'update' },
    });
    expect(updated).toMatchObject({ status: 'succeeded', created: 0, updated: 1, duplicatesStored: 1 });
    expect(await companiesIn(city)).toMatchObject([{ id: stored.id, employees: 50, version: 2 }]);
    const created = await importAll(server, 'companies', 'd.csv', csv, {
      duplicates: { key: 'name', action: 'create' },
    });
    expect(created).toMatchObject({ status: 'succeeded', created: 1 });
    expect(await companiesIn(city)).toHaveLength(2);
  });

  it('writes a batch of new and skipped rows in one statement: its counts, and its ledger in the file’s order', async () => {
    const city = unique('Oneville');
    const stored = await make.company({ name: unique('Stored'), website: `https://one-${slug(city)}.example`, city });
    const csv = [
      'Name,Website,City',
      `New A,https://a-${slug(city)}.example,${city}`,
      `${String(stored.name)},https://one-${slug(city)}.example,${city}`,
      `New B,https://b-${slug(city)}.example,${city}`,
      `New C,https://c-${slug(city)}.example,${city}`,
    ].join('\n');
    const transactions = vi.spyOn(server.database.db, 'transaction');
    let job: Awaited<ReturnType<typeof importAll>>;
    try {
      job = await importAll(server, 'companies', 'one.csv', csv, { duplicates: { key: 'domain', action: 'skip' } });
      // No BEGIN and COMMIT around the batch: one statement wrote it.
      expect(transactions).not.toHaveBeenCalled();
    } finally {
      transactions.mockRestore();
    }
    expect(job).toMatchObject({ status: 'succeeded', rowsDone: 4, created: 3, skipped: 1, duplicatesStored: 1 });
    const byName = new Map((await companiesIn(city)).map((c) => [c.name, c.id]));
    const ledger = await server.database.rows<{ first_row: number; ids: string }>(
      sql`select first_row, record_ids::text as ids from import_created where import_id = ${job.id}`,
    );
    expect(ledger).toEqual([
      { first_row: 2, ids: `{${['New A', 'New B', 'New C'].map((name) => byName.get(name)).join(',')}}` },
    ]);
    expect((await server.fetch(`/api/v1/imports/${job.id}/undo`, { method: 'POST' })).status).toBe(202);
    expect(await waitForImport(server, job.id)).toMatchObject({ status: 'undone', undo: { deleted: 3 } });
    expect((await companiesIn(city)).map((c) => c.id)).toEqual([stored.id]);
  });

  it('an export imported again with "update" by id changes nothing', async () => {
    const city = unique('Roundtrip');
    const firm = await make.firm({ name: unique('Firm') });
    for (let i = 0; i < 3; i++) {
      await make.contact({
        firstName: `Round${i}`,
        lastName: city,
        email: `${city.toLowerCase().replace(/\W/g, '')}-${i}@example.com`,
        firmId: firm.id,
        city,
        tags: ['a', 'b'],
      });
    }
    const exported = await server.fetch(
      `/api/v1/contacts/export?format=csv&filter[lastName][eq]=${encodeURIComponent(city)}`,
    );
    expect(exported.status).toBe(200);
    const csv = await exported.text();
    const uploaded = await uploadImport(server, 'contacts', 'export.csv', csv);
    expect(uploaded.body.columns[0]).toMatchObject({ heading: 'ID', target: { field: 'id' } });
    const started = await startImport(server, {
      entity: 'contacts',
      uploadId: uploaded.body.uploadId,
      mapping: uploaded.body.columns.map((c) => c.target),
      duplicates: { key: 'id', action: 'update' },
    });
    expect(started.status).toBe(202);
    const job = await waitForImport(server, started.body.id);
    expect(job).toMatchObject({ status: 'succeeded', created: 0, updated: 0, unchanged: 3, problems: [] });
  });

  it('cancels a job: all or nothing takes back what it wrote', async () => {
    const city = unique('Cancelville');
    // Long enough that no job writes it all between its first batch and the next check of the cancel (5,000 rows a batch at most).
    const uploaded = await uploadImport(server, 'companies', 'big.csv', companiesCsv(city, 30_000));
    const started = await startImport(server, {
      entity: 'companies',
      uploadId: uploaded.body.uploadId,
      mapping: uploaded.body.columns.map((c) => c.target),
    });
    const writing = await waitForImport(
      server,
      started.body.id,
      (job) => job.rowsDone > 0 || (job.status !== 'checking' && job.status !== 'queued'),
    );
    expect(writing.status).toBe('writing');
    const cancel = await server.fetch(`/api/v1/imports/${started.body.id}/cancel`, { method: 'POST' });
    expect(cancel.status).toBe(202);
    const job = await waitForImport(server, started.body.id);
    expect(job.status).toBe('cancelled');
    expect(job.rowsDone).toBeLessThan(30_000);
    expect(await companiesIn(city)).toEqual([]);
    const again = await server.fetch(`/api/v1/imports/${started.body.id}/cancel`, { method: 'POST' });
    expect(again.status).toBe(409);
  });

  it('undo deletes what the import created and restores what it updated, keeping records changed since', async () => {
    const city = unique('Undoville');
    const kept = await make.company({ name: unique('Kept'), city, employees: 1 });
    const csv = [
      'Name,City,Employees',
      `${String(kept.name)},${city},2`,
      `New one,${city},3`,
      `New two,${city},4`,
    ].join('\n');
    const job = await importAll(server, 'companies', 'u.csv', csv, { duplicates: { key: 'name', action: 'update' } });
    expect(job).toMatchObject({ status: 'succeeded', created: 2, updated: 1 });
    const two = (await companiesIn(city)).find((c) => c.name === 'New two') as { id: number; version: number };
    const edit = await server.fetch(`/api/v1/companies/${two.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'if-match': `"${two.version}"` },
      body: JSON.stringify({ employees: 40 }),
    });
    expect(edit.status).toBe(200);
    const undo = await server.fetch(`/api/v1/imports/${job.id}/undo`, { method: 'POST' });
    expect(undo.status).toBe(202);
    const undone = await waitForImport(server, job.id);
    expect(undone).toMatchObject({
      status: 'undone',
      undo: { deleted: 1, restored: 1, keptCount: 1, kept: [{ id: two.id, reason: 'Changed since the import' }] },
    });
    expect((await companiesIn(city)).map((c) => [c.name, c.employees])).toEqual([
      [String(kept.name), 1],
      ['New two', 40],
    ]);
    const twice = await server.fetch(`/api/v1/imports/${job.id}/undo`, { method: 'POST' });
    expect(twice.status).toBe(409);
  });

  it('keeps what a job created a row per batch, and undoes a job whose ledger has a row per record (before 0020)', async () => {
    const city = unique('Ledgerville');
    const job = await importAll(server, 'companies', 'ledger.csv', companiesCsv(city, 1200));
    expect(job).toMatchObject({ status: 'succeeded', created: 1200 });
    const batches = await server.database.rows<{ first_row: number; ids: number }>(
      sql`select first_row, cardinality(record_ids) as ids from import_created where import_id = ${job.id}
        order by first_row`,
    );
    // The first batch is 100 rows (rows 2 to 101 of the file), the next ones larger.
    expect(batches[0]).toEqual({ first_row: 2, ids: 100 });
    expect(batches.length).toBeLessThan(12);
    expect(batches.reduce((sum, batch) => sum + Number(batch.ids), 0)).toBe(1200);
    // The same ledger as a job before import_created kept it: a row per record created.
    await server.database.rows(
      sql`insert into import_records (import_id, record_id, row_number, action, previous, version)
        select c.import_id, u.id, c.first_row + u.o::int - 1, 'created', null, 1
        from import_created c, unnest(c.record_ids) with ordinality u(id, o) where c.import_id = ${job.id}`,
    );
    await server.database.rows(sql`delete from import_created where import_id = ${job.id}`);
    expect((await server.fetch(`/api/v1/imports/${job.id}/undo`, { method: 'POST' })).status).toBe(202);
    expect(await waitForImport(server, job.id)).toMatchObject({
      status: 'undone',
      undo: { deleted: 1200, keptCount: 0 },
    });
    expect(await companiesIn(city)).toEqual([]);
    const left = await server.database.rows<{ n: number | string }>(
      sql`select count(*) as n from import_records where import_id = ${job.id}`,
    );
    expect(Number(left[0]?.n)).toBe(0);
  });

  it('undo takes back untouched records together, one with a note on its own, each restorable as any deleted record', async () => {
    const city = unique('Batchville');
    const lines = ['Name,City,Employees'];
    for (let i = 1; i <= 30; i++) lines.push(`Batch ${i},${city},${i}`);
    const job = await importAll(server, 'companies', 'b.csv', lines.join('\n'));
    expect(job).toMatchObject({ status: 'succeeded', created: 30 });
    const byName = new Map((await companiesIn(city)).map((c) => [c.name, c as { id: number; version: number }]));
    const noted = byName.get('Batch 3') as { id: number };
    const gone = byName.get('Batch 4') as { id: number; version: number };
    const untouched = byName.get('Batch 5') as { id: number };
    const note = await make.note('companies', noted.id, 'Added after the import');
    const removed = await server.fetch(`/api/v1/companies/${gone.id}`, {
      method: 'DELETE',
      headers: { 'if-match': `"${gone.version}"` },
    });
    expect(removed.status).toBe(204);

    expect((await server.fetch(`/api/v1/imports/${job.id}/undo`, { method: 'POST' })).status).toBe(202);
    const undone = await waitForImport(server, job.id);
    expect(undone).toMatchObject({
      status: 'undone',
      undo: { deleted: 29, restored: 0, keptCount: 1, kept: [{ id: gone.id, reason: 'Deleted since the import' }] },
    });
    expect(await companiesIn(city)).toEqual([]);
    expect((await server.fetch(`/api/v1/notes/${note.id}`)).status).toBe(404);

    // Each deletion is on the record's timeline, by the importer, with what a restore needs.
    const history = async (id: number) =>
      (
        (await (await server.fetch(`/api/v1/companies/${id}/history`)).json()) as {
          data: { action: string; actor: { id: number } | null; restorable: boolean; changes: { field: string }[] }[];
        }
      ).data;
    const [deletion] = await history(untouched.id);
    expect(deletion).toMatchObject({ action: 'deleted', restorable: true, actor: { id: expect.any(Number) } });
    expect(deletion?.changes.map((c) => c.field)).toEqual(expect.arrayContaining(['name', 'city', 'employees']));
    const back = await server.fetch(`/api/v1/companies/${untouched.id}/restore`, { method: 'POST' });
    expect(back.status).toBe(200);
    expect(((await back.json()) as { record: Record<string, unknown> }).record).toMatchObject({
      name: 'Batch 5',
      city,
      employees: 5,
    });
    const withNote = await server.fetch(`/api/v1/companies/${noted.id}/restore`, { method: 'POST' });
    expect(withNote.status).toBe(200);
    expect(((await withNote.json()) as { restoredRows: number }).restoredRows).toBe(1);
    expect((await server.fetch(`/api/v1/notes/${note.id}`)).status).toBe(200);
  });

  it('remembers the mapping the user confirmed last, skipped columns included', async () => {
    const csv = 'Account Label,Internal code\nRemembered Inc,X-1\n';
    const first = await uploadImport(server, 'companies', 'remember.csv', csv);
    expect(first.body.columns.map((c) => c.target)).toEqual([null, null]);
    const started = await startImport(server, {
      entity: 'companies',
      uploadId: first.body.uploadId,
      mapping: [{ field: 'name' }, null],
    });
    expect(started.status).toBe(202);
    await waitForImport(server, started.body.id);
    const again = await uploadImport(server, 'companies', 'remember-again.csv', csv);
    expect(again.body.columns.map((c) => [c.target, c.suggestedBy])).toEqual([
      [{ field: 'name' }, 'remembered'],
      [null, 'remembered'],
    ]);
    const twice = await startImport(server, {
      entity: 'companies',
      uploadId: first.body.uploadId,
      mapping: [{ field: 'name' }, null],
    });
    expect(twice.status).toBe(409);
  });

  it('is seen by its importer and administrators only, and needs the update right to update duplicates', async () => {
    const importer = await signInWithPermissions(server, ['companies:read', 'companies:create', 'companies:import']);
    const uploaded = await uploadImport(server, 'companies', 'mine.csv', `Name\n${unique('Mine')}\n`, importer.token);
    expect(uploaded.status).toBe(201);
    const refused = await startImport(
      server,
      {
        entity: 'companies',
        uploadId: uploaded.body.uploadId,
        mapping: [{ field: 'name' }],
        duplicates: { key: 'name', action: 'update' },
      },
      importer.token,
    );
    expect(refused.status).toBe(403);
    const started = await startImport(
      server,
      { entity: 'companies', uploadId: uploaded.body.uploadId, mapping: [{ field: 'name' }] },
      importer.token,
    );
    expect(started.status).toBe(202);
    const other = await signInWithPermissions(server, ['companies:read', 'companies:create', 'companies:import']);
    expect((await getImport(server, started.body.id, other.token)).status).toBe(404);
    expect((await getImport(server, started.body.id, importer.token)).status).toBe(200);
    expect((await waitForImport(server, started.body.id)).status).toBe('succeeded');
  });

  it("lists the caller's own imports, newest first, by kind of record, without their problems", async () => {
    const importer = await signInWithPermissions(server, [
      'companies:read',
      'companies:create',
      'companies:import',
      'firms:read',
    ]);
    const run = async (name: string, csv: string) => {
      const uploaded = await uploadImport(server, 'companies', name, csv, importer.token);
      const started = await startImport(
        server,
        { entity: 'companies', uploadId: uploaded.body.uploadId, mapping: [{ field: 'name' }] },
        importer.token,
      );
      return waitForImport(server, started.body.id);
    };
    const first = await run('first.csv', `Name\n${unique('Listed')}\n`);
    const second = await run('second.csv', 'Name,City\n,Lyon\n');
    expect(second).toMatchObject({ status: 'failed', problemCount: 1 });
    // An upload never imported is not an import.
    await uploadImport(server, 'companies', 'unused.csv', `Name\n${unique('Unused')}\n`, importer.token);
    const list = async (query: string, token = importer.token) => {
      const answer = await server.fetch(`/api/v1/imports${query}`, { headers: { authorization: `Bearer ${token}` } });
      return { status: answer.status, body: (await answer.json()) as { data: { id: number; problems: unknown[] }[] } };
    };
    const all = await list('');
    expect(all.status).toBe(200);
    expect(all.body.data.map((job) => job.id)).toEqual([second.id, first.id]);
    expect(all.body.data[0]).toMatchObject({ fileName: 'second.csv', status: 'failed', problemCount: 1, problems: [] });
    expect(all.body.data[1]).toMatchObject({ fileName: 'first.csv', status: 'succeeded', created: 1 });
    expect((await list('?entity=companies&limit=1')).body.data.map((job) => job.id)).toEqual([second.id]);
    expect((await list('?entity=firms')).status).toBe(403);
    expect((await list('?limit=0')).status).toBe(400);
    // Another importer sees none of them.
    const other = await signInWithPermissions(server, ['companies:read', 'companies:create', 'companies:import']);
    expect((await list('', other.token)).body.data).toEqual([]);
  });

  it("pages through the caller's imports of every kind with before: each once, newest first", async () => {
    const importer = await signInWithPermissions(server, [
      'companies:read',
      'companies:create',
      'companies:import',
      'firms:read',
      'firms:create',
      'firms:import',
    ]);
    const ids: number[] = [];
    for (const entity of ['companies', 'firms', 'companies', 'firms', 'companies']) {
      const uploaded = await uploadImport(
        server,
        entity,
        `${entity}.csv`,
        `Name\n${unique('Paged')}\n`,
        importer.token,
      );
      const started = await startImport(
        server,
        { entity, uploadId: uploaded.body.uploadId, mapping: [{ field: 'name' }] },
        importer.token,
      );
      ids.push((await waitForImport(server, started.body.id)).id);
    }
    const list = async (query: string) => {
      const answer = await server.fetch(`/api/v1/imports${query}`, {
        headers: { authorization: `Bearer ${importer.token}` },
      });
      return {
        status: answer.status,
        body: (await answer.json()) as {
          data: { id: number; entity: string }[];
          nextBefore: number | null;
          error?: { fields?: Record<string, string> };
        },
      };
    };
    const seen: { id: number; entity: string }[] = [];
    let before: number | null | undefined;
    const pages: number[] = [];
    do {
      const page = await list(`?limit=2${before ? `&before=${before}` : ''}`);
      expect(page.status).toBe(200);
      pages.push(page.body.data.length);
      seen.push(...page.body.data);
      before = page.body.nextBefore;
      if (before !== null) expect(before).toBe(page.body.data.at(-1)?.id);
    } while (before !== null);
    expect(pages).toEqual([2, 2, 1]);
    expect(seen.map((job) => job.id)).toEqual([...ids].reverse());
    expect(seen.map((job) => job.entity)).toEqual(['companies', 'firms', 'companies', 'firms', 'companies']);
    // A page that ends exactly with the last job says so: no empty page after it.
    expect((await list(`?limit=5`)).body.nextBefore).toBeNull();
    // With entity, pages hold that kind only.
    const companies = await list(`?entity=companies&limit=2`);
    expect(companies.body.data.map((job) => job.id)).toEqual([ids[4], ids[2]]);
    const olderCompanies = await list(`?entity=companies&limit=2&before=${companies.body.nextBefore}`);
    expect(olderCompanies.body).toEqual({ data: [expect.objectContaining({ id: ids[0] })], nextBefore: null });
    for (const bad of ['abc', '0', '-3', '1.5', '']) {
      const refused = await list(`?before=${bad}`);
      expect(refused.status, `before=${bad}`).toBe(400);
      expect(Object.keys(refused.body.error?.fields ?? {}), `before=${bad}`).toEqual(['before']);
    }
  });
});

describe('uploads no import was started from', () => {
  it(`are removed with their files after ${IMPORT_UPLOAD_HOURS} hours; others stay`, async () => {
    const city = unique('Leftville');
    const old = await uploadImport(server, 'companies', 'old.csv', companiesCsv(city, 3));
    const fresh = await uploadImport(server, 'companies', 'fresh.csv', companiesCsv(city, 3));
    expect([old.status, fresh.status]).toEqual([201, 201]);
    const fileOf = (id: number) => path.join(server.dataDir, 'imports', String(id));
    expect(existsSync(fileOf(old.body.uploadId))).toBe(true);
    // An upload left a minute past the limit, and a job started from an upload as old: only the first goes.
    const started = await importAll(server, 'companies', 'kept.csv', companiesCsv(city, 2));
    await server.database.rows(
      sql`update imports set created_at = now() - make_interval(hours => ${IMPORT_UPLOAD_HOURS}, mins => 1)
        where id = any(${`{${old.body.uploadId},${started.id}}`}::bigint[])`,
    );
    // The runner's sweep does this once a minute; the test asks for it at once.
    const removed = await forgetOldUploads(server.database, server.dataDir);
    expect(removed).toContain(old.body.uploadId);
    expect(removed).not.toContain(started.id);
    expect(removed).not.toContain(fresh.body.uploadId);
    expect(existsSync(fileOf(old.body.uploadId))).toBe(false);
    const [gone] = await server.database.rows<{ n: number | string }>(
      sql`select count(*) as n from imports where id = ${old.body.uploadId}`,
    );
    expect(Number(gone?.n)).toBe(0);
    const preview = await server.fetch('/api/v1/imports/preview', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ entity: 'companies', uploadId: old.body.uploadId }),
    });
    expect(preview.status).toBe(404);
    expect(((await preview.json()) as { error: { message: string } }).error.message).toContain(
      `kept ${IMPORT_UPLOAD_HOURS} hours`,
    );
    // The fresh upload is still there and previews; the old job is still listed.
    expect(existsSync(fileOf(fresh.body.uploadId))).toBe(true);
    const again = await server.fetch('/api/v1/imports/preview', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ entity: 'companies', uploadId: fresh.body.uploadId }),
    });
    expect(again.status).toBe(200);
    expect((await getImport(server, started.id)).body).toMatchObject({ id: started.id, status: 'succeeded' });
  });
});

describe('stray import files', () => {
  it('removes files of gone or ended imports and old partial uploads, and keeps the rest', async () => {
    const dir = path.join(server.dataDir, 'imports');
    await mkdir(dir, { recursive: true });
    const city = unique('Strayville');
    const kept = await uploadImport(server, 'companies', 'kept.csv', companiesCsv(city, 2));
    const ended = await importAll(server, 'companies', 'ended.csv', companiesCsv(city, 2));
    const put = async (name: string, hoursAgo = 0) => {
      await writeFile(path.join(dir, name), 'x');
      const when = new Date(Date.now() - hoursAgo * 3_600_000);
      await utimes(path.join(dir, name), when, when);
    };
    await put('987654321'); // no such import
    await put(String(ended.id)); // its job has ended: its file was removed, as a stopped process might not have
    const left = `tmp-${unique('left')}`;
    await put(left, IMPORT_UPLOAD_HOURS + 1); // a process stopped mid-upload a day ago
    const uploading = `tmp-${unique('now')}`;
    await put(uploading); // another process's upload in progress
    await put('notes.txt', IMPORT_UPLOAD_HOURS + 1); // not ours to judge

    const removed = await removeStrayUploads(server.database, server.dataDir);
    expect(removed.sort()).toEqual(['987654321', String(ended.id), left].sort());
    for (const name of [String(kept.body.uploadId), uploading, 'notes.txt']) {
      expect(existsSync(path.join(dir, name)), name).toBe(true);
    }
  });
});
