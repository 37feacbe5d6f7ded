import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, factories, unique } from '../testing/factories.ts';
import { importFile } from '../testing/imports.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * An import whose rows all pass the checks but that the database refuses
 * part-way (a unique value used twice, on row 9,000): the answer says which
 * value clashed, and not one row of the file was written.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const ROWS = 9000;

/** A contacts CSV of ROWS rows with last name `family`; `email(i)` gives row i's email (i from 1). */
function contactsCsv(family: string, email: (i: number) => string): string {
  const lines = ['First name,Last name,Email'];
  for (let i = 1; i <= ROWS; i++) lines.push(`Person${i},${family},${email(i)}`);
  return `${lines.join('\n')}\n`;
}

async function contactsNamed(family: string): Promise<{ total: number | null; totalExact: boolean | null }> {
  const answer = await adminClient(server).list('/api/v1/contacts', {
    'filter[lastName][eq]': family,
    pageSize: 1,
    count: 'exact',
  });
  expect(answer.status).toBe(200);
  return { total: answer.body.total, totalExact: answer.body.totalExact };
}

async function importEvents(): Promise<number> {
  const answer = await adminClient(server).list('/api/v1/audit-events', {
    'filter[type][eq]': 'recordsImported',
    pageSize: 1,
    count: 'exact',
  });
  expect(answer.status).toBe(200);
  return Number(answer.body.total);
}

describe('an import the database refuses part-way', () => {
  it('writes no row when row 9,000 repeats the email of row 1 of the same file', async () => {
    const family = unique('Rollback').replace(/\W/g, '');
    const events = await importEvents();
    const csv = contactsCsv(family, (i) => `${family}-${i === ROWS ? 1 : i}@example.com`.toLowerCase());
    const answer = await importFile(server, 'contacts', 'contacts.csv', csv);
    // Row numbers are the spreadsheet's: the heading is row 1, so the file's 9,000th contact is row 9,001.
    expect(answer).toEqual({
      status: 400,
      body: {
        error: {
          code: 'validation_failed',
          message: '1 of 9000 rows cannot be imported; nothing was imported. Each error names its row and field.',
          fields: { '9001.email': 'The same email as row 2' },
          issues: { '9001.email': { code: 'other' } },
        },
      },
    });
    expect(await contactsNamed(family)).toEqual({ total: 0, totalExact: true });
    expect(await importEvents()).toBe(events);
  });

  it('writes no row when row 9,000 repeats the email of a contact already stored', async () => {
    const family = unique('Rollback').replace(/\W/g, '');
    const taken = `${family}-taken@example.com`.toLowerCase();
    await factories(adminClient(server)).contact({ lastName: `${family}Stored`, email: taken });
    const events = await importEvents();
    const csv = contactsCsv(family, (i) => (i === ROWS ? taken : `${family}-${i}@example.com`.toLowerCase()));
    const answer = await importFile(server, 'contacts', 'contacts.csv', csv);
    expect(answer.status).toBe(409);
    expect(answer.body.error).toEqual({
      code: 'conflict',
      message: 'A row repeats the email of a stored record; nothing was imported. Each error names its row.',
      fields: { '9001.email': 'Another record already has this email' },
      issues: { '9001.email': { code: 'other' } },
    });
    expect(await contactsNamed(family)).toEqual({ total: 0, totalExact: true });
    expect(await importEvents()).toBe(events);

    // The same file without the clash goes in whole: the refusal was the clash, not the size.
    const clean = contactsCsv(family, (i) => `${family}-${i}@example.com`.toLowerCase());
    expect(await importFile(server, 'contacts', 'contacts.csv', clean)).toEqual({
      status: 201,
      body: { created: ROWS, ignoredColumns: [] },
    });
    expect(await contactsNamed(family)).toEqual({ total: ROWS, totalExact: true });
    expect(await importEvents()).toBe(events + 1);
  });
});
