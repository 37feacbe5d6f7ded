import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithPermissions } from '../testing/accounts.ts';
import { adminClient, type Factories, factories, unique } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * `GET /api/v1/{resource}/export`: the list a person is looking at (its
 * filters, sort, search and columns) as CSV or XLSX, every matching row once.
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

async function exported(path: string, init?: RequestInit): Promise<{ status: number; type: string; rows: string[][] }> {
  const answer = await server.fetch(path, init);
  const text = await answer.text();
  return {
    status: answer.status,
    type: `${answer.headers.get('content-type')} ${answer.headers.get('content-disposition')}`,
    rows: answer.status === 200 ? (parse(text, { bom: true }) as string[][]) : [],
  };
}

describe('export', () => {
  it('writes the chosen columns under their labels: references by name, money in two columns, lists joined', async () => {
    const firm = await make.firm({ name: 'Northwind Capital' });
    const city = unique('Exportville');
    await make.company({
      name: 'Acme, "the" Robotics',
      city,
      ownerId: null,
      revenue: { amount: 2500000.5, currency: 'EUR' },
      tags: ['AI', 'Robotics'],
      description: 'Line one\nline two',
    });
    await make.fund({ name: unique('Fund'), firmId: firm.id });
    const csv = await exported(
      `/api/v1/companies/export?select=name,revenue,tags,description,hqCountryId&filter[city][eq]=${encodeURIComponent(city)}`,
    );
    expect(csv.status).toBe(200);
    expect(csv.type).toMatch(/^text\/csv; charset=utf-8 attachment; filename="companies-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(csv.rows).toEqual([
      ['ID', 'Name', 'Revenue', 'Revenue currency', 'Tags', 'Description', 'HQ country'],
      [
        expect.stringMatching(/^\d+$/),
        'Acme, "the" Robotics',
        '2500000.5',
        'EUR',
        'AI; Robotics',
        'Line one\nline two',
        '',
      ],
    ]);
    const funds = await exported(`/api/v1/funds/export?select=name,firmId&filter[firmId][eq]=${firm.id}`);
    expect(funds.rows[1]?.slice(2)).toEqual(['Northwind Capital']);
  });

  it('reads every matching row exactly once, in the list order, past many pages', async () => {
    const city = unique('Bulkton');
    await server.database.rows(
      sql`insert into companies (name, city) select 'Bulk ' || lpad(n::text, 5, '0'), ${city} from generate_series(1, 2500) n`,
    );
    const csv = await exported(
      `/api/v1/companies/export?select=name&sort=-name&filter[city][eq]=${encodeURIComponent(city)}`,
    );
    const names = csv.rows.slice(1).map((row) => row[1]);
    expect(names).toHaveLength(2500);
    expect(new Set(names).size).toBe(2500);
    expect(names[0]).toBe('Bulk 02500');
    expect(names.at(-1)).toBe('Bulk 00001');
  });

  it('exports custom fields and answers XLSX with the same cells', async () => {
    const definition = await server.fetch('/api/v1/custom-data', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ entity: 'deals', name: 'Next step', type: 'text' }),
    });
    const { key } = (await definition.json()) as { key: string };
    const name = unique('Deal');
    await make.deal({ name, [key]: 'Term sheet' });
    const filter = `filter[name][eq]=${encodeURIComponent(name)}`;
    const csv = await exported(`/api/v1/deals/export?select=name,${key}&${filter}`);
    expect(csv.rows.map((row) => row.slice(1))).toEqual([
      ['Name', 'Next step'],
      [name, 'Term sheet'],
    ]);
    const answer = await server.fetch(`/api/v1/deals/export?format=xlsx&select=name,${key}&${filter}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toMatch(/filename="deals-\d{4}-\d{2}-\d{2}\.xlsx"/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await answer.arrayBuffer());
    const sheet = workbook.getWorksheet('Deals');
    if (!sheet) throw new Error('No sheet named Deals');
    expect(sheet.getRow(1).values).toEqual([undefined, 'ID', 'Name', 'Next step']);
    expect((sheet.getRow(2).values as unknown[]).slice(2)).toEqual([name, 'Term sheet']);
  });

  it('writes text that a spreadsheet would run as a formula as text in CSV, numbers as numbers, and XLSX as strings', async () => {
    const definition = await server.fetch('/api/v1/custom-data', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ entity: 'companies', name: '=Score', type: 'decimal' }),
    });
    const { key } = (await definition.json()) as { key: string };
    const city = unique('Formulaville');
    const company = await make.company({
      name: '=HYPERLINK("http://evil.example","Click")',
      city,
      description: "+cmd|' /C calc'!A0",
      tags: ['@SUM(A1)', '-2+3', 'plain'],
      revenue: { amount: -5, currency: 'USD' },
      [key]: -5,
    });
    // Older rows and imports can hold text the API now trims: a tab or spaces before the formula.
    await server.database.rows(
      sql`update companies set linkedin_url = ${'\t=1+1'}, website = ${'  -1+1'} where id = ${company.id}`,
    );
    const select = `select=name,description,tags,revenue,linkedinUrl,website,${key}`;
    const filter = `filter[city][eq]=${encodeURIComponent(city)}`;
    const csv = await exported(`/api/v1/companies/export?${select}&${filter}`);
    expect(csv.rows).toEqual([
      ['ID', 'Name', 'Description', 'Tags', 'Revenue', 'Revenue currency', 'LinkedIn URL', 'Website', "'=Score"],
      [
        String(company.id),
        `'=HYPERLINK("http://evil.example","Click")`,
        "'+cmd|' /C calc'!A0",
        "'@SUM(A1); -2+3; plain",
        '-5',
        'USD',
        "'\t=1+1",
        "'  -1+1",
        '-5',
      ],
    ]);
    const answer = await server.fetch(`/api/v1/companies/export?format=xlsx&${select}&${filter}`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await answer.arrayBuffer());
    const row = workbook.worksheets[0]?.getRow(2);
    if (!row) throw new Error('No data row');
    expect(row.getCell(2).type).toBe(ExcelJS.ValueType.String);
    expect(row.getCell(2).value).toBe('=HYPERLINK("http://evil.example","Click")');
    expect(row.getCell(7).value).toBe('\t=1+1');
    expect(row.getCell(5).value).toBe(-5);
    expect(row.getCell(9).value).toBe(-5);
    row.eachCell((cell) => expect(cell.formula).toBeUndefined());
  });

  it('needs the export permission of the records, and refuses bad list parameters and formats with 400', async () => {
    const reader = await signInWithPermissions(server, ['companies:read']);
    const refused = await server.fetch('/api/v1/companies/export', {
      headers: { authorization: `Bearer ${reader.token}` },
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('companies:export');
    const exporter = await signInWithPermissions(server, ['companies:read', 'companies:export']);
    const allowed = await server.fetch('/api/v1/companies/export?select=name', {
      headers: { authorization: `Bearer ${exporter.token}` },
    });
    expect(allowed.status).toBe(200);
    // A reference is written by name: naming the firms of contacts needs reading firms.
    const contactsOnly = await signInWithPermissions(server, ['contacts:read', 'contacts:export']);
    const asContactsOnly = { headers: { authorization: `Bearer ${contactsOnly.token}` } };
    expect((await server.fetch('/api/v1/contacts/export?select=lastName,firmId', asContactsOnly)).status).toBe(403);
    expect((await server.fetch('/api/v1/contacts/export?select=lastName', asContactsOnly)).status).toBe(200);
    expect((await exported('/api/v1/companies/export?filter[nope][eq]=1')).status).toBe(400);
    expect((await exported('/api/v1/companies/export?format=pdf')).status).toBe(400);
    expect((await exported('/api/v1/companies/export?select=name&filter[name][eq]=nobody')).rows).toEqual([
      ['ID', 'Name'],
    ]);
  });
});
