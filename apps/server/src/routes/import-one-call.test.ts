import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithPermissions } from '../testing/accounts.ts';
import { adminClient, type Factories, factories, unique } from '../testing/factories.ts';
import { importFile, postImportFile, startImport, uploadImport, waitForImport } from '../testing/import-jobs.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * Imports in one multipart call (issue 14): the settings, then the file, to
 * `POST /api/v1/imports/file`; a job as `POST /api/v1/imports` starts one,
 * with the preview's suggestions when no mapping is given. A refused call
 * keeps nothing: no upload row, no file.
 */
const MAX_UPLOAD_BYTES = 64 * 1024;
let server: TestServer;
let make: Factories;

beforeAll(async () => {
  server = await startTestServer({ MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES) });
  make = factories(adminClient(server));
});
afterAll(async () => {
  await server?.close();
});

async function companiesIn(city: string): Promise<Record<string, unknown>[]> {
  const answer = await server.fetch(
    `/api/v1/companies?filter[city][eq]=${encodeURIComponent(city)}&sort=name&pageSize=100`,
  );
  return ((await answer.json()) as { data: Record<string, unknown>[] }).data;
}

const importRows = async () =>
  Number((await server.database.rows<{ n: number | string }>(sql`select count(*) as n from imports`))[0]?.n);

/**
 * Fails when a refused call left something: a row of `imports` (their count is
 * as before, none is an upload waiting for its import), or a file under
 * DATA_DIR/imports that no row names (a refused upload's, or a partial one).
 */
async function expectNothingKept(rowsBefore: number): Promise<void> {
  const rows = await server.database.rows<{ id: number | string; status: string }>(sql`select id, status from imports`);
  expect(rows.length).toBe(rowsBefore);
  expect(rows.filter((row) => row.status === 'uploaded')).toEqual([]);
  const named = new Set(rows.map((row) => String(row.id)));
  const files = await readdir(path.join(server.dataDir, 'imports')).catch(() => [] as string[]);
  expect(files.filter((file) => !named.has(file))).toEqual([]);
}

describe('POST /api/v1/imports/file', () => {
  it('imports a CSV with the mapping and picklist values the preview suggests', async () => {
    const city = unique('Onecallville');
    const csv = [
      'Company Name,City,Stage,Headcount',
      `Alpha,${city},series a,10`,
      `Beta,${city},Seed,5`,
      `Gamma,${city},Series Z,7`,
    ].join('\r\n');
    const started = await importFile(server, { entity: 'companies', mode: 'skipBadRows' }, 'one.csv', csv);
    expect(started.status).toBe(202);
    expect(started.location).toBe(`/api/v1/imports/${started.body.id}`);
    expect(started.body).toMatchObject({ entity: 'companies', fileName: 'one.csv', mode: 'skipBadRows' });
    const job = await waitForImport(server, started.body.id);
    // "series a" is the option Series A by suggestion; "Series Z" matches no option and stays its row's problem.
    expect(job).toMatchObject({ status: 'succeeded', created: 2, failed: 1 });
    expect(job.problems).toEqual([{ row: 4, field: 'stage', message: expect.any(String) }]);
    expect((await companiesIn(city)).map((c) => [c.name, c.stage, c.employees])).toEqual([
      ['Alpha', 'Series A', 10],
      ['Beta', 'Seed', 5],
    ]);
  });

  it('imports with the mapping given, updating duplicates', async () => {
    const city = unique('Givenville');
    const stored = await make.company({ name: unique('Stored'), city, employees: 5 });
    const csv = `Raison sociale,Ville,Effectif\n${String(stored.name)},${city},50\nNouvelle,${city},7\n`;
    const started = await importFile(
      server,
      {
        entity: 'companies',
        mapping: [{ field: 'name' }, { field: 'city' }, { field: 'employees' }],
        duplicates: { key: 'name', action: 'update' },
      },
      'given.csv',
      csv,
    );
    expect(started.status).toBe(202);
    const job = await waitForImport(server, started.body.id);
    expect(job).toMatchObject({ status: 'succeeded', mode: 'allOrNothing', created: 1, updated: 1 });
    expect((await companiesIn(city)).map((c) => [c.name, c.employees])).toEqual([
      ['Nouvelle', 7],
      [String(stored.name), 50],
    ]);
  });

  it('refuses settings that are not valid, naming the setting, and keeps nothing', async () => {
    const before = await importRows();
    const csv = 'Name,City\nRefused,Nowhere\n';
    const refusedWith = async (settings: Record<string, unknown> | string) => {
      const answer = await importFile(server, settings, 'refused.csv', csv);
      expect(answer.status, JSON.stringify(settings)).toBe(400);
      await expectNothingKept(before);
      return Object.keys(answer.body.error?.fields ?? {});
    };
    expect(await refusedWith({ entity: 'companies', mode: 'sometimes' })).toEqual(['settings.mode']);
    expect(await refusedWith({ entity: 'companies', uploadId: 3 })).toEqual(['settings.uploadId']);
    expect(await refusedWith({ mapping: [{ field: 'name' }] })).toEqual(['settings.entity']);
    expect(await refusedWith('{"entity": "companies",')).toEqual(['settings']);
    expect(await refusedWith({ entity: 'planets' })).toEqual(['settings.entity']);
    expect(await refusedWith({ entity: 'companies', mapping: [{ field: 'nope' }, null] })).toEqual([
      'settings.mapping.0',
    ]);
    // Checked once the file is read: a CSV has no sheet.
    expect(await refusedWith({ entity: 'companies', sheet: 'Sheet1' })).toEqual(['settings.sheet']);
  });

  it('wants the settings first, then the file, as multipart', async () => {
    const before = await importRows();
    const settings = JSON.stringify({ entity: 'companies' });
    const file = new Blob([`Name\n${unique('Misordered')}\n`]);
    const fileFirst = new FormData();
    fileFirst.append('file', file, 'late.csv');
    fileFirst.append('settings', settings);
    const late = await postImportFile(server, fileFirst);
    expect(late.status).toBe(400);
    expect(late.body.error?.fields).toHaveProperty('settings');
    expect(late.body.error?.message).toMatch(/settings first/);

    const settingsOnly = new FormData();
    settingsOnly.append('settings', settings);
    const noFile = await postImportFile(server, settingsOnly);
    expect(noFile.status).toBe(400);
    expect(noFile.body.error?.fields).toHaveProperty('file');

    const asFile = new FormData();
    asFile.append('settings', new Blob([settings], { type: 'application/json' }), 'settings.json');
    asFile.append('file', file, 'late.csv');
    expect((await postImportFile(server, asFile)).status).toBe(400);

    const json = await server.fetch('/api/v1/imports/file', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: settings,
    });
    expect(json.status).toBe(415);
    await expectNothingKept(before);
  });

  it('refuses a file over the limit as it arrives (413) and keeps nothing', async () => {
    const before = await importRows();
    const big = `Name\n${'x'.repeat(MAX_UPLOAD_BYTES + 1024)}\n`;
    const answer = await importFile(server, { entity: 'companies' }, 'big.csv', big);
    expect(answer.status).toBe(413);
    expect(answer.body.error?.fields).toHaveProperty('file');
    // Settings are bounded too; wrong ones are answered without waiting for a large file.
    const huge = JSON.stringify({ entity: 'companies', fixed: { city: 'y'.repeat(1024 * 1024) } });
    const settings = await importFile(server, huge, 'small.csv', 'Name\nA\n');
    expect(settings.status).toBe(413);
    expect(settings.body.error?.fields).toHaveProperty('settings');
    const wrong = await importFile(server, { entity: 'companies', mode: 'x' }, 'big.csv', big.repeat(16));
    expect(wrong.status).toBe(400);
    await expectNothingKept(before);
  });

  it('needs the create and import rights, and the update right to update duplicates', async () => {
    const before = await importRows();
    const csv = `Name\n${unique('Rights')}\n`;
    const reader = await signInWithPermissions(server, ['companies:read', 'companies:create']);
    expect((await importFile(server, { entity: 'companies' }, 'r.csv', csv, reader.token)).status).toBe(403);
    const firmImporter = await signInWithPermissions(server, ['firms:read', 'firms:create', 'firms:import']);
    expect((await importFile(server, { entity: 'companies' }, 'r.csv', csv, firmImporter.token)).status).toBe(403);
    const importer = await signInWithPermissions(server, ['companies:read', 'companies:create', 'companies:import']);
    const update = { entity: 'companies', duplicates: { key: 'name', action: 'update' } };
    expect((await importFile(server, update, 'r.csv', csv, importer.token)).status).toBe(403);
    await expectNothingKept(before);
    const started = await importFile(server, { entity: 'companies' }, 'r.csv', csv, importer.token);
    expect(started.status).toBe(202);
    expect(await waitForImport(server, started.body.id)).toMatchObject({ status: 'succeeded', created: 1 });
  });

  it('refuses a mapping that leaves a required field without a column or a value for every row', async () => {
    const before = await importRows();
    const city = unique('Namelessville');
    const csv = `City,Headcount\n${city},3\n${city},4\n`;
    // Suggested: City and Headcount go to fields, nothing to Name.
    const suggested = await importFile(server, { entity: 'companies' }, 'nameless.csv', csv);
    expect(suggested.status).toBe(400);
    expect(suggested.body.error?.fields).toEqual({ 'settings.mapping': expect.stringContaining('Name (name)') });
    const given = await importFile(
      server,
      { entity: 'companies', mapping: [{ field: 'city' }, { field: 'employees' }] },
      'nameless.csv',
      csv,
    );
    expect(given.status).toBe(400);
    expect(Object.keys(given.body.error?.fields ?? {})).toEqual(['settings.mapping']);
    await expectNothingKept(before);
    // POST /api/v1/imports refuses it alike.
    const uploaded = await uploadImport(server, 'companies', 'nameless.csv', csv);
    const start = await startImport(server, {
      entity: 'companies',
      uploadId: uploaded.body.uploadId,
      mapping: uploaded.body.columns.map((c) => c.target),
    });
    expect(start.status).toBe(400);
    expect(Object.keys(start.body.error?.fields ?? {})).toEqual(['mapping']);
    // A value for every row gives it.
    const fixed = await importFile(server, { entity: 'companies', fixed: { name: 'Same name' } }, 'fixed.csv', csv);
    expect(fixed.status).toBe(202);
    expect(await waitForImport(server, fixed.body.id)).toMatchObject({ status: 'succeeded', created: 2 });
    expect((await companiesIn(city)).map((c) => [c.name, c.employees])).toEqual([
      ['Same name', 3],
      ['Same name', 4],
    ]);
  });
});
