import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithPermissions } from '../testing/accounts.ts';
import { adminClient, factories, unique } from '../testing/factories.ts';
import { type ImportAnswer, importFile } from '../testing/imports.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { entry, repeatedEntry, sheetHead, sheetTail, workbookEntries, zip } from '../testing/zip.ts';

/**
 * Imports an attacker (or an unlucky user) could send to exhaust the
 * server: each is refused with the limit it passed, and the server keeps
 * answering others while it reads them. Imports that would tell a user what
 * they may not read are refused before anything is looked up.
 */
let server: TestServer;

beforeAll(async () => {
  // The default upload limit (25 MB), so that the files below are refused for what they hold, not their size.
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/**
 * Imports while reading a list over and over: the import's answer, and how
 * many reads were answered (each with 200) before it came.
 */
async function importWhileReading(name: string, bytes: Uint8Array | string): Promise<ImportAnswer & { reads: number }> {
  let answer: ImportAnswer | undefined;
  const importing = importFile(server, 'companies', name, bytes).then((a) => {
    answer = a;
  });
  let reads = 0;
  do {
    const read = await server.fetch('/api/v1/companies?pageSize=1&count=exact');
    expect(read.status).toBe(200);
    await read.arrayBuffer();
    if (!answer) reads += 1;
  } while (!answer);
  await importing;
  return { ...answer, reads };
}

async function countCompanies(): Promise<number> {
  const answer = await server.fetch('/api/v1/companies?pageSize=1&count=exact');
  return ((await answer.json()) as { total: number }).total;
}

describe('import limits', () => {
  it('refuses an XLSX whose sheet inflates to hundreds of megabytes, answering other requests while it reads it', async () => {
    const padding = Buffer.from(`<c/>${' '.repeat(64 * 1024)}`);
    const sheet = await repeatedEntry(
      'sheet',
      [Buffer.from(`${sheetHead}<row r="1">`), padding, Buffer.from(`</row>${sheetTail}`)],
      Math.ceil((256 * 1024 * 1024) / padding.length),
    );
    const bytes = zip(await workbookEntries(sheet));
    expect(bytes.length).toBeLessThan(1024 * 1024);
    const answer = await importWhileReading('bomb.xlsx', bytes);
    expect(answer.status).toBe(413);
    expect(answer.body.error?.message).toBe(
      'This workbook unzips to more than 100 times its size, which no spreadsheet does; it is refused as a zip bomb',
    );
    expect(answer.reads).toBeGreaterThan(0);
  });

  it('refuses an XLSX of a million rows, a zip of 10,000 entries and a workbook missing its sheet', async () => {
    const rows = await repeatedEntry(
      'sheet',
      [
        Buffer.from(`${sheetHead}<row><c t="inlineStr"><is><t>Name</t></is></c></row>`),
        Buffer.from('<row><c t="inlineStr"><is><t>Acme</t></is></c></row>'),
        Buffer.from(sheetTail),
      ],
      1_000_000,
    );
    const manyRows = await importWhileReading('rows.xlsx', zip(await workbookEntries(rows)));
    expect(manyRows.status).toBe(413);
    expect(manyRows.body.error?.message).toBe('Import at most 10000 rows at a time');

    const blankRows = await repeatedEntry(
      'sheet',
      [Buffer.from(sheetHead), Buffer.from('<row/>'), Buffer.from(sheetTail)],
      1_000_000,
    );
    const blank = await importWhileReading('blank.xlsx', zip(await workbookEntries(blankRows)));
    expect(blank.status).toBe(413);
    expect(blank.body.error?.message).toBe('The file has more than 20,000 rows (blank rows count too)');

    const tiny = await entry('x', '');
    const manyEntries = zip(Array.from({ length: 10_000 }, (_, i) => ({ ...tiny, name: `x/${i}.xml` })));
    const entries = await importWhileReading('entries.xlsx', manyEntries);
    expect(entries.status).toBe(400);
    expect(entries.body.error?.fields?.file).toContain('10,000 entries');

    const noSheet = zip((await workbookEntries(tiny)).filter((e) => !e.name.includes('worksheets')));
    expect((await importFile(server, 'companies', 'nosheet.xlsx', noSheet)).body.error?.fields).toEqual({
      file: 'This is not an Excel workbook (XLSX)',
    });
  });

  it('refuses a million empty CSV lines, a row of a million columns and a cell of 20 MB', async () => {
    const before = await countCompanies();
    const empty = await importWhileReading('empty.csv', `Name\n${'\n'.repeat(1_000_000)}Acme\n`);
    expect(empty.status).toBe(413);
    expect(empty.body.error?.message).toBe('The file has more than 20,000 rows (blank rows count too)');

    const wide = await importWhileReading('wide.csv', `Name${','.repeat(1_000_000)}\nAcme\n`);
    expect(wide.status).toBe(400);
    expect(wide.body.error?.fields).toEqual({ file: 'Row 1 has more than 1,000 columns' });

    const long = await importWhileReading('long.csv', `Name\n"${'x'.repeat(20 * 1024 * 1024)}"\n`);
    expect(long.status).toBe(400);
    expect(long.body.error?.fields).toEqual({ file: 'Row 2 is longer than 1,000,000 characters' });

    const rows = `Name\n${Array.from({ length: 10_001 }, (_, i) => `Company ${i}`).join('\n')}`;
    const tooMany = await importFile(server, 'companies', 'many.csv', rows);
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.error?.message).toBe('Import at most 10000 rows at a time');
    expect(await countCompanies()).toBe(before);
  });

  it('refuses a CSV that is not UTF-8, naming the line and how to save it; reads UTF-16 with a byte order mark', async () => {
    const name = unique('Café');
    const latin1 = Buffer.from(`Name,City\nPlain,Paris\n${name},Lyon\n`, 'latin1');
    const refused = await importFile(server, 'companies', 'latin1.csv', latin1);
    expect(refused.status).toBe(400);
    expect(refused.body.error?.fields?.file).toBe(
      'This file is not UTF-8 text: line 3 holds bytes of another encoding (such as Latin-1 or Windows-1252). Save it from your spreadsheet as "CSV UTF-8 (Comma delimited)" (or with the encoding UTF-8) and import it again.',
    );

    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`Name,City\n${name},Lyon\n`, 'utf16le')]);
    expect(await importFile(server, 'companies', 'utf16.csv', utf16)).toMatchObject({
      status: 201,
      body: { created: 1 },
    });
    const found = await server.fetch(`/api/v1/companies?filter[name][eq]=${encodeURIComponent(name)}`);
    expect(((await found.json()) as { data: unknown[] }).data).toMatchObject([{ name, city: 'Lyon' }]);
  });

  it('refuses a reference column to records the importer may not read, before looking any name up', async () => {
    const firm = await factories(adminClient(server)).firm({ name: unique('Hidden Firm') });
    const user = await signInWithPermissions(server, ['contacts:read', 'contacts:create', 'contacts:import']);
    const answers = await Promise.all(
      [String(firm.name), 'No Such Firm'].map((firmName) =>
        importFile(
          server,
          'contacts',
          'contacts.csv',
          `First name,Last name,Firm\nAda,Lovelace,${firmName}\n`,
          user.token,
        ),
      ),
    );
    // The same answer whether the firm exists or not: the import tells nothing about firms.
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]?.status).toBe(403);
    expect(answers[0]?.body.error?.message).toContain('firms:read');
    expect(answers[0]?.body.error?.fields).toEqual({ firmId: 'The column Firm needs firms:read' });
    expect(
      (await importFile(server, 'contacts', 'contacts.csv', 'First name,Last name\nAda,Lovelace\n', user.token)).status,
    ).toBe(201);
  });
});
