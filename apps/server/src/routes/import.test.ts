import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithPermissions } from '../testing/accounts.ts';
import { adminClient, type Factories, factories, unique } from '../testing/factories.ts';
import { importFile as importFileTo } from '../testing/imports.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * `POST /api/v1/{resource}/import`: rows of a CSV or XLSX file become records,
 * all of them or none, with each bad row named.
 */
let server: TestServer;
let make: Factories;

beforeAll(async () => {
  server = await startTestServer({ MAX_UPLOAD_BYTES: String(64 * 1024) });
  make = factories(adminClient(server));
});
afterAll(async () => {
  await server?.close();
});

const importFile = (resource: string, name: string, bytes: Uint8Array | string, token?: string) =>
  importFileTo(server, resource, name, bytes, token);

async function companiesIn(city: string): Promise<Record<string, unknown>[]> {
  const answer = await server.fetch(
    `/api/v1/companies?filter[city][eq]=${encodeURIComponent(city)}&sort=name&join=hqCountry(name),owner(fullName)`,
  );
  return ((await answer.json()) as { data: Record<string, unknown>[] }).data;
}

describe('import', () => {
  it('creates a record per row: headings by label or name, references by name, money, lists, custom fields', async () => {
    const definition = await server.fetch('/api/v1/custom-data', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        entity: 'companies',
        name: 'Deal source',
        type: 'select',
        options: ['Referral', 'Inbound'],
      }),
    });
    const { key } = (await definition.json()) as { key: string };
    const city = unique('Importville');
    const csv = [
      'Name,HQ country,City,Revenue,Revenue currency,tags,Deal source,Created,Notes to self',
      `"Acme, Inc.",France,${city},2500000,eur,AI; Robotics,Referral,2020-01-01,ignore me`,
      `Globex,united states,${city},,,,Inbound,,`,
      ',,,,,,,,',
    ].join('\n');
    const answer = await importFile('companies', 'companies.csv', `\uFEFF${csv}`);
    expect(answer).toEqual({ status: 201, body: { created: 2, ignoredColumns: ['Created', 'Notes to self'] } });
    expect(await companiesIn(city)).toMatchObject([
      {
        name: 'Acme, Inc.',
        hqCountry: { name: 'France' },
        revenue: { amount: 2500000, currency: 'EUR' },
        tags: ['AI', 'Robotics'],
        [key]: 'Referral',
      },
      { name: 'Globex', hqCountry: { name: 'United States' }, revenue: null, tags: [], [key]: 'Inbound' },
    ]);
  });

  it('imports nothing when any row is wrong, and names each bad row and field', async () => {
    const firm = await make.firm({ name: unique('Twin Firm') });
    await make.firm({ name: String(firm.name) });
    const csv = [
      'First name,Last name,Email,Firm',
      'Ada,Lovelace,ada-import@example.com,',
      ',Nameless,not-an-email,',
      `Grace,Hopper,grace-import@example.com,${String(firm.name)}`,
      'Alan,Turing,alan-import@example.com,No Such Firm',
    ].join('\n');
    const answer = await importFile('contacts', 'contacts.csv', csv);
    expect(answer.status).toBe(400);
    expect(answer.body.error?.message).toBe(
      '3 of 4 rows cannot be imported; nothing was imported. Each error names its row and field.',
    );
    expect(answer.body.error?.fields).toEqual({
      '3.firstName': 'Required',
      '3.email': 'Expected an email address',
      '4.firmId': `More than one firm matches ${String(firm.name)}`,
      '5.firmId': 'No firm named No Such Firm',
    });
    const ada = await server.fetch('/api/v1/contacts?count=exact&filter[email][eq]=ada-import@example.com');
    expect(((await ada.json()) as { total: number }).total).toBe(0);
  });

  it("imports notes onto the records they name, by id or by name in the row's record type, as import jobs do", async () => {
    const company = await make.company({ name: unique('Noted') });
    const deal = await make.deal({ name: unique('Noted deal') });
    const csv = [
      'Record type,Record,Note',
      `companies,${company.id},On the company by id`,
      `deals,${String(deal.name)},On the deal by name`,
    ].join('\n');
    const answer = await importFile('notes', 'notes.csv', csv);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const notesOn = async (entity: string, id: number) => {
      const found = await server.fetch(`/api/v1/notes?filter[entity][eq]=${entity}&filter[recordId][eq]=${id}`);
      return ((await found.json()) as { data: { body: string }[] }).data.map((note) => note.body);
    };
    expect(await notesOn('companies', company.id)).toEqual(['On the company by id']);
    expect(await notesOn('deals', deal.id)).toEqual(['On the deal by name']);
    const refused = await importFile('notes', 'bad.csv', `Record type,Record,Note\n,${company.id},No type\n`);
    expect(refused.status).toBe(400);
    expect(refused.body.error?.fields).toMatchObject({
      '2.recordId': 'Give the record type in its own column to find this record',
    });
  });

  it("finds a state within the row's country: a name two countries' states share is told apart by the country", async () => {
    const [pair] = await server.database.rows<{ state: string; first: string; second: string }>(
      sql`select s.name as state, min(c.name) as first, max(c.name) as second
        from states s join countries c on c.id = s.country_id
        group by s.name having count(distinct c.id) = 2 order by s.name limit 1`,
    );
    if (!pair) throw new Error('The reference data has no state name two countries share');
    const city = unique('Stateville');
    const csv = ['Name,HQ country,HQ state,City', `One,${pair.first},${pair.state},${city}`];
    csv.push(`Two,${pair.second},${pair.state},${city}`);
    expect(await importFile('companies', 'states.csv', csv.join('\n'))).toMatchObject({ status: 201 });
    const stored = await server.database.rows<{ name: string; country: string; state_country: string }>(
      sql`select t.name, c.name as country, sc.name as state_country from companies t
        join countries c on c.id = t.hq_country_id join states s on s.id = t.hq_state_id
        join countries sc on sc.id = s.country_id where t.city = ${city} order by t.name`,
    );
    expect(stored).toEqual([
      { name: 'One', country: pair.first, state_country: pair.first },
      { name: 'Two', country: pair.second, state_country: pair.second },
    ]);
    // Without a country the name stays ambiguous.
    const refused = await importFile('companies', 'no-country.csv', `Name,HQ state\nThree,${pair.state}\n`);
    expect(refused.status).toBe(400);
    expect(refused.body.error?.fields).toMatchObject({ '2.hqStateId': `More than one state matches ${pair.state}` });
  });

  it('reads the first sheet of an XLSX workbook, dates and numbers as cells', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Deals');
    const name = unique('Imported deal');
    sheet.addRow(['Name', 'Stage', 'Amount', 'Amount currency', 'Expected close date']);
    sheet.addRow([name, 'Sourced', 1500000, 'USD', new Date(Date.UTC(2027, 2, 31))]);
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    const answer = await importFile('deals', 'deals.xlsx', bytes);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const found = await server.fetch(`/api/v1/deals?filter[name][eq]=${encodeURIComponent(name)}`);
    expect(((await found.json()) as { data: unknown[] }).data).toMatchObject([
      { name, stage: 'Sourced', amount: { amount: 1500000, currency: 'USD' }, expectedCloseDate: '2027-03-31' },
    ]);
  });

  it('takes back what an export wrote', async () => {
    const city = unique('Roundtrip');
    await make.company({ name: 'Round One', city, revenue: { amount: 10, currency: 'USD' }, tags: ['x', 'y'] });
    const exported = await server.fetch(
      `/api/v1/companies/export?select=name,city,revenue,tags&filter[city][eq]=${encodeURIComponent(city)}`,
    );
    const text = (await exported.text()).replace(city, `${city} again`);
    expect(await importFile('companies', 'again.csv', text)).toMatchObject({ status: 201, body: { created: 1 } });
    expect(await companiesIn(`${city} again`)).toMatchObject([
      { name: 'Round One', revenue: { amount: 10, currency: 'USD' }, tags: ['x', 'y'] },
    ]);
  });

  it('takes back what an XLSX export wrote', async () => {
    const city = unique('Workbook');
    await make.company({ name: 'Sheet One', city, revenue: { amount: 12.5, currency: 'EUR' }, tags: ['a', 'b'] });
    const exported = await server.fetch(
      `/api/v1/companies/export?format=xlsx&select=name,city,revenue,tags&filter[city][eq]=${encodeURIComponent(city)}`,
    );
    expect(exported.status).toBe(200);
    const answer = await importFile('companies', 'again.xlsx', new Uint8Array(await exported.arrayBuffer()));
    expect(answer).toMatchObject({ status: 201, body: { created: 1, ignoredColumns: ['ID'] } });
    expect(await companiesIn(city)).toMatchObject([
      { name: 'Sheet One', revenue: { amount: 12.5, currency: 'EUR' }, tags: ['a', 'b'] },
      { name: 'Sheet One', revenue: { amount: 12.5, currency: 'EUR' }, tags: ['a', 'b'] },
    ]);
  });

  it('records one audit event per import that wrote rows, none for one refused', async () => {
    const auditsOfImports = async () => {
      const answer = await server.fetch('/api/v1/audit-events?filter[type][eq]=recordsImported&sort=-createdAt');
      return ((await answer.json()) as { data: { details: string; actorId: number }[] }).data;
    };
    const before = (await auditsOfImports()).length;
    expect((await importFile('companies', 'bad.csv', 'Name,Revenue\nAcme,lots\n')).status).toBe(400);
    expect(
      await importFile('companies', 'good.csv', `Name\n${unique('Audited')}\n${unique('Audited')}\n`),
    ).toMatchObject({ status: 201, body: { created: 2 } });
    const events = await auditsOfImports();
    expect(events.length).toBe(before + 1);
    expect(events[0]).toMatchObject({ details: 'companies: 2 records' });
  });

  it('refuses without the import right, other file types, files too large and files without rows', async () => {
    const reader = await signInWithPermissions(server, ['companies:read', 'companies:create']);
    const refused = await importFile('companies', 'a.csv', 'Name\nAcme', reader.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error?.message).toContain('companies:import');
    expect((await importFile('companies', 'a.pdf', '%PDF')).status).toBe(415);
    expect((await importFile('companies', 'a.xlsx', 'not a workbook')).body.error?.fields).toEqual({
      file: 'This is not an Excel workbook (XLSX)',
    });
    expect((await importFile('companies', 'big.csv', `Name\n${'x'.repeat(70 * 1024)}`)).status).toBe(413);
    expect((await importFile('companies', 'empty.csv', 'Name\n')).body.error?.fields).toEqual({
      file: 'The file has no rows under its heading row',
    });
    expect((await importFile('companies', 'odd.csv', 'Colour\nred')).body.error?.fields).toEqual({
      file: 'No column heading names a field of these records',
    });
  });
});
