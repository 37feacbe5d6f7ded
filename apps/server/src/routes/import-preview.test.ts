import type { ImportPreview } from '@data-platform/shared/imports';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithPermissions } from '../testing/accounts.ts';
import { adminClient, type Factories, factories, unique } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * Upload and preview of an import (issue 14): files as spreadsheets write
 * them are read (dialects, encodings, sheets, heading rows), columns and
 * picklist values are mapped by suggestion, and the first rows show as they
 * would be stored with their problems; nothing is written.
 */
let server: TestServer;
let make: Factories;

beforeAll(async () => {
  server = await startTestServer({ MAX_UPLOAD_BYTES: String(256 * 1024) });
  make = factories(adminClient(server));
});
afterAll(async () => {
  await server?.close();
});

async function upload(
  name: string,
  bytes: Uint8Array | string,
  entity = 'companies',
  token?: string,
): Promise<{ status: number; body: ImportPreview & { error?: { message: string; fields?: Record<string, string> } } }> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const answer = await server.fetch(`/api/v1/imports/uploads?entity=${entity}`, {
    method: 'POST',
    body: form,
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
  });
  return { status: answer.status, body: (await answer.json()) as ImportPreview };
}

async function preview(
  body: Record<string, unknown>,
): Promise<{ status: number; body: ImportPreview & { error?: { fields?: Record<string, string> } } }> {
  const answer = await server.fetch('/api/v1/imports/preview', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as ImportPreview };
}

async function countCompanies(): Promise<number> {
  const answer = await server.fetch('/api/v1/companies?pageSize=1&count=exact');
  return ((await answer.json()) as { total: number }).total;
}

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

describe('import preview', () => {
  it('reads the CSV dialects spreadsheets write: BOM, semicolons, CRLF, quoted line breaks, tabs in UTF-16, Windows-1252', async () => {
    const excelFrench = '\uFEFFName;City;Employees\r\n"Société ""Générale""";Paris;"12"\r\n"Two\r\nlines";Lyon;3\r\n';
    const semicolons = await upload('export.csv', excelFrench);
    expect(semicolons.status).toBe(201);
    expect(semicolons.body.dialect).toEqual({ encoding: 'utf-8', bom: true, delimiter: ';', lineBreak: 'crlf' });
    expect(semicolons.body.headings).toEqual(['Name', 'City', 'Employees']);
    expect(semicolons.body.rows.map((r) => r.values)).toEqual([
      { name: 'Société "Générale"', city: 'Paris', employees: 12 },
      { name: 'Two\r\nlines', city: 'Lyon', employees: 3 },
    ]);

    const unicodeText = await upload('unicode.txt', utf16le('Name\tCity\nÅland Oy\tMariehamn\n'));
    expect(unicodeText.body.dialect).toEqual({ encoding: 'utf-16le', bom: true, delimiter: '\t', lineBreak: 'lf' });
    expect(unicodeText.body.rows[0]?.values).toEqual({ name: 'Åland Oy', city: 'Mariehamn' });

    // Excel's "CSV (Comma delimited)" on Windows in a Western locale: Windows-1252, no BOM.
    const latin = Buffer.from([
      ...Buffer.from('Name,City\r\nCaf'),
      0xe9,
      ...Buffer.from(' du Monde,S'),
      0xe8,
      ...Buffer.from('te\r\n'),
    ]);
    const windows = await upload('cafe.csv', latin);
    expect(windows.body.dialect).toMatchObject({ encoding: 'windows-1252', bom: false, delimiter: ',' });
    expect(windows.body.rows[0]?.values).toEqual({ name: 'Café du Monde', city: 'Sète' });

    // Bytes no single-byte Western encoding defines are refused, naming the line.
    const unknown = await upload('odd.csv', Buffer.from([...Buffer.from('Name\nA'), 0x81, 0x8d, 0x0a]));
    expect(unknown.status).toBe(400);
    expect(unknown.body.error?.fields?.file).toMatch(/not UTF-8 text: line 2/);
  });

  it('reads a workbook sheet picked by name from the heading row given, and lists its sheets', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Notes').addRow(['Nothing to import here']);
    const sheet = workbook.addWorksheet('Companies');
    sheet.addRow(['Portfolio export, 2026']);
    sheet.addRow([]);
    sheet.addRow(['Company Name', 'Web Site', 'Headcount', 'Founded']);
    sheet.addRow(['Initech', 'https://www.initech.example', 250, 1999]);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const first = await upload('book.xlsx', bytes);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ kind: 'xlsx', sheets: ['Notes', 'Companies'], sheet: 'Notes', dialect: null });
    const picked = await preview({
      entity: 'companies',
      uploadId: first.body.uploadId,
      sheet: 'Companies',
      headerRow: 3,
    });
    expect(picked.status).toBe(200);
    expect(picked.body.headerRow).toBe(3);
    expect(picked.body.columns.map((c) => [c.heading, c.target?.field ?? null, c.suggestedBy])).toEqual([
      ['Company Name', 'name', 'synonym'],
      ['Web Site', 'website', 'label'],
      ['Headcount', 'employees', 'synonym'],
      ['Founded', 'foundedYear', 'label'],
    ]);
    expect(picked.body.rows).toEqual([
      {
        row: 4,
        values: { name: 'Initech', website: 'https://www.initech.example', employees: 250, foundedYear: 1999 },
        names: {},
        previous: {},
        previousNames: {},
        problems: {},
        action: null,
      },
    ]);
    const noSheet = await preview({ entity: 'companies', uploadId: first.body.uploadId, sheet: 'Missing' });
    expect(noSheet.status).toBe(400);
  });

  it('suggests picklist options for the values of a column, custom picklists included, and the caller decides', async () => {
    const definition = await server.fetch('/api/v1/custom-data', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        entity: 'companies',
        name: 'Sector',
        type: 'select',
        options: ['Software & IT', 'Health care', 'Other'],
      }),
    });
    const { key } = (await definition.json()) as { key: string };
    const csv = [
      'Name,Stage,Sector,Country',
      'A,series a,Software,FR',
      'B,Seed,software,France',
      'C,Series B,Healthcare,DEU',
      'D,Series Z,Mining,Atlantis',
    ].join('\n');
    const uploaded = await upload('values.csv', csv);
    expect(uploaded.status).toBe(201);
    const stage = uploaded.body.picklists.find((p) => p.field === 'stage');
    expect(stage?.values).toEqual([
      { value: 'series a', rows: 1, option: 'Series A', matchedBy: 'normalized' },
      { value: 'Seed', rows: 1, option: 'Seed', matchedBy: 'exact' },
      { value: 'Series B', rows: 1, option: 'Series B', matchedBy: 'exact' },
      { value: 'Series Z', rows: 1, option: null, matchedBy: null },
    ]);
    const sector = uploaded.body.picklists.find((p) => p.field === key);
    expect(sector?.values.map((v) => [v.value, v.option])).toEqual([
      ['Software', 'Software & IT'],
      ['software', 'Software & IT'],
      ['Healthcare', 'Health care'],
      ['Mining', null],
    ]);
    // Rows as they would be stored: unmapped values and unknown countries are problems of their row and field.
    expect(uploaded.body.rows[0]?.problems).toMatchObject({ stage: expect.any(String), [key]: expect.any(String) });
    expect(uploaded.body.rows[2]?.values.hqCountryId).toEqual(expect.any(Number));
    expect(uploaded.body.rows[3]?.problems).toMatchObject({ hqCountryId: 'No country named Atlantis' });
    // A reference is stored as an id and shown by the name of the record found, however the file named it.
    expect(uploaded.body.rows.map((r) => r.names.hqCountryId)).toEqual(['France', 'France', 'Germany', undefined]);
    expect(uploaded.body.rows[0]?.values.hqCountryId).toBe(uploaded.body.rows[1]?.values.hqCountryId);
    // The caller's value mapping is applied: the suggestions accepted, Mining mapped to Other.
    const values = {
      stage: { 'series a': 'Series A', 'Series Z': null },
      [key]: { Software: 'Software & IT', software: 'Software & IT', Healthcare: 'Health care', Mining: 'Other' },
    };
    const mapped = await preview({
      entity: 'companies',
      uploadId: uploaded.body.uploadId,
      mapping: uploaded.body.columns.map((c) => c.target),
      values,
    });
    expect(mapped.status).toBe(200);
    expect(mapped.body.rows.map((r) => r.problems)).toEqual([{}, {}, {}, { hqCountryId: 'No country named Atlantis' }]);
    expect(mapped.body.rows.map((r) => [r.values.stage, r.values[key]])).toEqual([
      ['Series A', 'Software & IT'],
      ['Seed', 'Software & IT'],
      ['Series B', 'Health care'],
      [undefined, 'Other'],
    ]);
    expect(mapped.body.picklists.find((p) => p.field === 'stage')?.values[0]).toMatchObject({ matchedBy: 'mapping' });
  });

  it('previews duplicates against stored records and within the file, writing nothing', async () => {
    const name = unique('Dup Co');
    await make.company({ name, website: 'https://www.dup-co.example' });
    const before = await countCompanies();
    const csv = [
      'Name,Website',
      `${name} renamed,http://dup-co.example/about`,
      `New ${name},https://new-dup.example`,
      `Again ${name},https://new-dup.example`,
    ].join('\n');
    const uploaded = await upload('dups.csv', csv);
    const checked = await preview({
      entity: 'companies',
      uploadId: uploaded.body.uploadId,
      mapping: [{ field: 'name' }, { field: 'website' }],
      duplicates: { key: 'domain', action: 'update' },
    });
    expect(checked.status).toBe(200);
    expect(checked.body.rows.map((r) => [r.action, r.problems])).toEqual([
      ['update', {}],
      ['create', {}],
      ['create', { domain: 'The same domain as row 3' }],
    ]);
    expect(await countCompanies()).toBe(before);
  });

  it('shows an update as the record will be: the values it keeps, and what each changed field held (by name)', async () => {
    const countryId = async (name: string) => {
      const answer = await server.fetch(`/api/v1/countries?filter[name][eq]=${name}&select=name`);
      return ((await answer.json()) as { data: { id: number }[] }).data[0]?.id;
    };
    const [france, germany] = [await countryId('France'), await countryId('Germany')];
    const moving = await make.company({ name: unique('Moving Co'), hqCountryId: france, employees: 10 });
    const staying = await make.company({ name: unique('Staying Co'), hqCountryId: germany, employees: 5 });
    const csv = [
      'Id,Name,HQ country,Employees,City',
      `${moving.id},${moving.name},Germany,12,Berlin`,
      `${staying.id},${staying.name},Germany,5,`,
    ].join('\n');
    const uploaded = await upload('update.csv', csv);
    const checked = await preview({
      entity: 'companies',
      uploadId: uploaded.body.uploadId,
      mapping: [
        { field: 'id' },
        { field: 'name' },
        { field: 'hqCountryId' },
        { field: 'employees' },
        { field: 'city' },
      ],
      duplicates: { key: 'id', action: 'update' },
    });
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    const [update, unchanged] = checked.body.rows;
    expect(update).toMatchObject({
      action: 'update',
      // Every value the row stores, the name it leaves as it is among them.
      values: { id: moving.id, name: moving.name, hqCountryId: germany, employees: 12, city: 'Berlin' },
      names: { hqCountryId: 'Germany' },
      previous: { hqCountryId: france, employees: 10, city: null },
      previousNames: { hqCountryId: 'France' },
      problems: {},
    });
    expect(Object.keys(update?.previous ?? {}).sort()).toEqual(['city', 'employees', 'hqCountryId']);
    expect(unchanged).toMatchObject({
      action: 'unchanged',
      values: { id: staying.id, name: staying.name, hqCountryId: germany, employees: 5, city: null },
      previous: {},
      previousNames: {},
    });
    // A preview without the duplicate rule creates: nothing before.
    const plain = await preview({
      entity: 'companies',
      uploadId: uploaded.body.uploadId,
      mapping: checked.body.columns.map((c) => c.target),
    });
    expect(plain.body.rows.map((r) => [r.previous, r.previousNames])).toEqual([
      [{}, {}],
      [{}, {}],
    ]);
  });

  it('finds the record a note is on by its id or name, in the record type the same row gives', async () => {
    const company = await make.company({ name: unique('Noted Co') });
    const deal = await make.deal({ name: unique('Noted deal') });
    const csv = [
      'Record type,Record,Note',
      `Company,${company.id},By id`,
      `deals,${String(deal.name).toUpperCase()},"By name, any case"`,
      `companies,${deal.name},A deal's name is no company's`,
      `Tasks,${company.id},Not a record type`,
    ].join('\n');
    const uploaded = await upload('notes.csv', csv, 'notes');
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const checked = await preview({
      entity: 'notes',
      uploadId: uploaded.body.uploadId,
      mapping: [{ field: 'entity' }, { field: 'recordId' }, { field: 'body' }],
      values: { entity: { Company: 'companies', deals: 'deals', companies: 'companies' } },
    });
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    const [byId, byName, wrongType, noType] = checked.body.rows;
    expect(byId).toMatchObject({ values: { entity: 'companies', recordId: company.id }, problems: {} });
    expect(byId?.names.recordId).toBe(company.name);
    expect(byName).toMatchObject({ values: { entity: 'deals', recordId: deal.id }, problems: {} });
    expect(wrongType?.problems.recordId).toBe(`No company named ${deal.name}`);
    expect(noType?.problems.entity).toBeTruthy();
    expect(noType?.values.recordId).toBeUndefined();
  });

  it('suggests an amount column for the money field itself, and says a row without its currency needs one', async () => {
    const uploaded = await upload(
      'money.csv',
      ['Name,Revenue,Revenue currency', 'Priced,1000,EUR', 'Unpriced,2000,'].join('\n'),
    );
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.columns.map((c) => c.target)).toEqual([
      { field: 'name' },
      { field: 'revenue' },
      { field: 'revenue', part: 'currency' },
    ]);
    const checked = await preview({
      entity: 'companies',
      uploadId: uploaded.body.uploadId,
      mapping: uploaded.body.columns.map((c) => c.target),
    });
    expect(checked.status).toBe(200);
    expect(checked.body.rows.map((r) => r.problems)).toEqual([
      {},
      { revenue: 'Needs its currency: map a column to it, or give one for every row' },
    ]);
  });

  it('needs the import rights, keeps uploads to their owner, refuses files over the limit as they arrive', async () => {
    const reader = await signInWithPermissions(server, ['companies:read', 'companies:create']);
    const refused = await upload('a.csv', 'Name\nA\n', 'companies', reader.token);
    expect(refused.status).toBe(403);
    const mine = await upload('a.csv', 'Name\nA\n');
    const importer = await signInWithPermissions(server, ['companies:read', 'companies:create', 'companies:import']);
    const other = await server.fetch('/api/v1/imports/preview', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${importer.token}` },
      body: JSON.stringify({ entity: 'companies', uploadId: mine.body.uploadId }),
    });
    expect(other.status).toBe(404);
    const big = await upload('big.csv', `Name\n${'x'.repeat(300 * 1024)}\n`);
    expect(big.status).toBe(413);
    const wrongMapping = await preview({
      entity: 'companies',
      uploadId: mine.body.uploadId,
      mapping: [{ field: 'nope' }],
    });
    expect(wrongMapping.status).toBe(400);
    expect(wrongMapping.body.error?.fields).toHaveProperty('mapping.0');
  });
});
