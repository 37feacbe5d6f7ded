import { allFields, type EntityDescription, isWritable } from '@data-platform/shared/entities/entity';
import { createSchema } from '@data-platform/shared/entities/record-schema';
import { findEntity } from '@data-platform/shared/entities/registry';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../auth/actor.ts';
import { currentDescription } from '../crud/custom-fields.ts';
import { createRecords } from '../crud/records.ts';
import { adminClient } from '../testing/factories.ts';
import { startImport, uploadImport, waitForImport } from '../testing/import-jobs.ts';
import { defineEveryCustomFieldType, sampleValues } from '../testing/sample-values.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * Issue 14's round trip: every company exported (all fields, custom fields of
 * every type) and imported again with "update" by id changes nothing, in CSV
 * and in XLSX, at 10,000 rows. Values a spreadsheet would read as formulas
 * (the CSV export writes them behind a `'`), text with quotes, delimiters,
 * line breaks and characters outside Latin-1, and records without their
 * optional fields go through too. Nothing may be written: no version moves,
 * no `updated_at`, no history entry.
 */

const ROWS = 10_000;
let server: TestServer;
let companies: EntityDescription;

/** Text a spreadsheet would run as a formula, or that reads like the export's own escape of one. */
const awkwardTexts = (n: number) => [
  `=SUM(A${n}) and "quoted", with; delimiters`,
  `-${n} starts like a negative number`,
  `+${n} plus`,
  `@${n} at`,
  `'=${n} an apostrophe before a formula`,
  `''+${n} two apostrophes`,
  `'plain ${n} behind an apostrophe`,
  `\u00e9t\u00e9 \u4e2d\u6587 \u{1F600} ${n}`,
];

/** One record's values: samples of every writable field, some left out, some text awkward. */
function valuesOf(n: number, refs: Record<string, number>): Record<string, unknown> {
  const writable = Object.entries(allFields(companies))
    .filter(([, field]) => isWritable(field))
    .map(([name]) => name);
  const values = sampleValues(companies, writable, n);
  // A quarter keep only their name: every optional field empty.
  if (n % 4 === 1) return { name: `Only a name ${n}` };
  Object.assign(values, refs);
  if (n % 4 === 2) {
    const texts = awkwardTexts(n);
    let i = n;
    for (const [name, field] of Object.entries(allFields(companies))) {
      if (!isWritable(field)) continue;
      if (field.type === 'text') values[name] = texts[i++ % texts.length];
      if (field.type === 'longText') values[name] = `${texts[i++ % texts.length]}\nsecond line, "quoted"\r\nthird`;
    }
  }
  return values;
}

/** Every company as its row is stored, by id: a write of any kind would change one. */
async function stored(): Promise<Map<number, string>> {
  const rows = await server.database.rows<{ id: number | string; row: string }>(
    sql`select id, row_to_json(t)::text as row from companies t order by id`,
  );
  return new Map(rows.map((r) => [Number(r.id), r.row]));
}

async function historyEntries(): Promise<number> {
  const [row] = await server.database.rows<{ n: number }>(sql`select count(*)::int as n from record_history`);
  return row?.n ?? 0;
}

beforeAll(async () => {
  server = await startTestServer();
  await defineEveryCustomFieldType(adminClient(server));
  companies = await currentDescription(server.database, findEntity('companies') as EntityDescription);
  const [refs] = await server.database.rows<{ country: number; state: number; owner: number }>(
    sql`select c.id::int as country,
        (select s.id::int from states s where s.country_id = c.id
          and (select count(*) from states o where o.name = s.name) = 1 order by s.id limit 1) as state,
        (select id::int from users order by id limit 1) as owner
      from countries c where c.iso2 = 'US'`,
  );
  if (!refs) throw new Error('The reference data has no United States');
  const schema = createSchema(companies);
  const rows = Array.from({ length: ROWS }, (_, n) =>
    schema.parse(valuesOf(n, { hqCountryId: refs.country, hqStateId: refs.state, ownerId: refs.owner })),
  );
  await server.database.db.transaction((tx) => createRecords(server.database, companies, rows, systemActor, tx));
}, 120_000);

afterAll(async () => server?.close());

describe.each(['csv', 'xlsx'] as const)('an export of %s imported again with "update" by id', (format) => {
  it(`changes nothing, at ${ROWS.toLocaleString('en')} companies with every field type and custom fields`, async () => {
    const before = await stored();
    expect(before.size).toBe(ROWS);
    const entries = await historyEntries();

    const exported = await server.fetch(`/api/v1/companies/export?format=${format}`);
    expect(exported.status).toBe(200);
    const bytes = new Uint8Array(await exported.arrayBuffer());
    const uploaded = await uploadImport(server, 'companies', `companies.${format}`, bytes);
    expect(uploaded.status, JSON.stringify(uploaded.body).slice(0, 2000)).toBe(201);
    // Every field a record's form writes has its column; the columns the server keeps (dates, version...) are skipped.
    const mapped = new Set(uploaded.body.columns.flatMap((c) => (c.target ? [c.target.field] : [])));
    for (const [name, field] of Object.entries(allFields(companies))) {
      if (isWritable(field)) expect(mapped, name).toContain(name);
    }
    expect(mapped).toContain('id');

    const started = await startImport(server, {
      entity: 'companies',
      uploadId: uploaded.body.uploadId,
      mapping: uploaded.body.columns.map((c) => c.target),
      duplicates: { key: 'id', action: 'update' },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const job = await waitForImport(server, started.body.id, undefined, 180_000);
    expect(job.problems.slice(0, 5)).toEqual([]);
    const after = await stored();
    const changed = [...before].filter(([id, row]) => after.get(id) !== row);
    expect(
      changed.slice(0, 2).map(([id, row]) => ({ before: row, after: after.get(id) })),
      `${changed.length} rows changed`,
    ).toEqual([]);
    expect(job).toMatchObject({ status: 'succeeded', created: 0, updated: 0, unchanged: ROWS, failed: 0 });
    expect(after.size).toBe(ROWS);
    expect(await historyEntries()).toBe(entries);
  }, 240_000);
});
