import { allFields, type EntityDescription, isWritable } from '@data-platform/shared/entities/entity';
import { createSchema } from '@data-platform/shared/entities/record-schema';
import { customizableResources, findEntity } from '@data-platform/shared/entities/registry';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../auth/actor.ts';
import { currentDescription } from '../crud/custom-fields.ts';
import { createRecords } from '../crud/records.ts';
import { columnName } from '../db/columns.ts';
import { adminClient } from '../testing/factories.ts';
import { startImport, uploadImport, waitForImport } from '../testing/import-jobs.ts';
import { defineEveryCustomFieldType, sampleValues } from '../testing/sample-values.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * Issue 14's round trip: every record of a type exported (all fields, custom
 * fields of every type) and imported again with "update" by id changes
 * nothing, in CSV and in XLSX: 10,000 companies, and 1,000 of each other
 * record type that takes custom fields, which between them have every field
 * type an import writes; references point at records as the export names
 * them, by name: a state whose name another country's state has (told apart
 * by the row's country), a firm whose name another firm has (the record keeps
 * the one it holds), the others by a name of their own. Values a spreadsheet would read as formulas
 * (the CSV export writes them behind a `'`), text with quotes, delimiters,
 * line breaks and characters outside Latin-1, and records without their
 * optional fields go through too. Nothing may be written: no version moves,
 * no `updated_at`, no history entry.
 */

/** Records made of each type: issue 14's 10,000 for companies, fewer of the others (they add field types, not scale). */
const rowsOf = (resource: string) => (resource === 'companies' ? 10_000 : 1_000);
let server: TestServer;
const SHARED_FIRM_NAME = 'Round Trip Capital';

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
function valuesOf(entity: EntityDescription, n: number, refs: Record<string, number>): Record<string, unknown> {
  const writable = Object.entries(allFields(entity)).filter(([, field]) => isWritable(field));
  const values = sampleValues(
    entity,
    writable.map(([name]) => name),
    n,
  );
  Object.assign(values, refs);
  // A quarter keep only their required fields: every optional field empty.
  if (n % 4 === 1) {
    for (const [name, field] of writable) if (!field.required) delete values[name];
  }
  if (n % 4 === 2) {
    const texts = awkwardTexts(n);
    let i = n;
    for (const [name, field] of writable) {
      // A record's display name stays plain: other rows' references find it by that name.
      if (name === entity.display) continue;
      if (field.type === 'text') values[name] = texts[i++ % texts.length];
      if (field.type === 'longText') values[name] = `${texts[i++ % texts.length]}\nsecond line, "quoted"\r\nthird`;
    }
  }
  return values;
}

/** Every record of a type as its row is stored, by id: a write of any kind would change one. */
async function stored(entity: EntityDescription): Promise<Map<number, string>> {
  const rows = await server.database.rows<{ id: number | string; row: string }>(
    sql`select id, row_to_json(t)::text as row from ${sql.identifier(entity.table)} t order by id`,
  );
  return new Map(rows.map((r) => [Number(r.id), r.row]));
}

async function historyEntries(): Promise<number> {
  const [row] = await server.database.rows<{ n: number }>(sql`select count(*)::int as n from record_history`);
  return row?.n ?? 0;
}

/** For each reference field of the type, a record its export names by a name no other record of that type has. */
async function referencesOf(entity: EntityDescription): Promise<Record<string, number>> {
  const refs: Record<string, number> = {};
  for (const [name, field] of Object.entries(allFields(entity))) {
    if (!isWritable(field) || field.type !== 'reference' || !field.to) continue;
    if (field.within) continue;
    if (field.to === 'firms') {
      // A firm another firm shares its name with: an update keeps the one the record holds.
      const [firm] = await server.database.rows<{ id: number }>(
        sql`select max(id)::int as id from firms where name = ${SHARED_FIRM_NAME}`,
      );
      if (firm) refs[name] = firm.id;
      continue;
    }
    const target = findEntity(field.to) as EntityDescription;
    const display = sql.identifier(columnName(target.display));
    const table = sql.identifier(target.table);
    const [found] = await server.database.rows<{ id: number }>(
      sql`select min(id)::int as id from ${table} t where ${display} is not null
        group by ${display} having count(*) = 1 order by min(id) limit 1`,
    );
    if (found) refs[name] = found.id;
  }
  // A state is named within its country: one whose name another country's state has too (Victoria, La Rioja),
  // which only the row's country tells apart.
  for (const [name, field] of Object.entries(allFields(entity))) {
    if (!isWritable(field) || !field.within) continue;
    const [state] = await server.database.rows<{ id: number; country: number }>(
      sql`select s.id::int as id, s.country_id::int as country from states s
        where (select count(*) from states o where o.name = s.name) > 1 order by s.id limit 1`,
    );
    if (!state) throw new Error('The reference data has no two states of one name');
    refs[name] = state.id;
    refs[field.within.field] = state.country;
  }
  return refs;
}

beforeAll(async () => {
  server = await startTestServer();
  await defineEveryCustomFieldType(adminClient(server));
  // Referenced records made first: two firms of one name (contacts, funds and investors name the second).
  const firms = await currentDescription(server.database, findEntity('firms') as EntityDescription);
  await server.database.db.transaction((tx) =>
    createRecords(server.database, firms, [{ name: SHARED_FIRM_NAME }, { name: SHARED_FIRM_NAME }], systemActor, tx),
  );
  for (const resource of customizableResources) {
    const entity = await currentDescription(server.database, findEntity(resource) as EntityDescription);
    const refs = await referencesOf(entity);
    const references = Object.values(allFields(entity)).filter((f) => isWritable(f) && f.type === 'reference');
    // Every reference points somewhere, so that the export names it and the import finds it again.
    expect(Object.keys(refs), resource).toHaveLength(references.length);
    const schema = createSchema(entity);
    const rows = Array.from({ length: rowsOf(resource) }, (_, n) => schema.parse(valuesOf(entity, n, refs)));
    await server.database.db.transaction((tx) => createRecords(server.database, entity, rows, systemActor, tx));
  }
}, 180_000);

afterAll(async () => server?.close());

/** Exports every record of `resource` and imports the file again with update by id; answers the job and the rows. */
async function roundTrip(resource: string, format: 'csv' | 'xlsx', edit: (file: Uint8Array) => Uint8Array = (f) => f) {
  const entity = await currentDescription(server.database, findEntity(resource) as EntityDescription);
  const before = await stored(entity);
  const entries = await historyEntries();
  const exported = await server.fetch(`/api/v1/${resource}/export?format=${format}`);
  expect(exported.status).toBe(200);
  const bytes = edit(new Uint8Array(await exported.arrayBuffer()));
  const uploaded = await uploadImport(server, resource, `${resource}.${format}`, bytes);
  expect(uploaded.status, JSON.stringify(uploaded.body).slice(0, 2000)).toBe(201);
  // Every field a record's form writes has its column; the ones the server keeps (dates, version...) are skipped.
  const mapped = new Set(uploaded.body.columns.flatMap((c) => (c.target ? [c.target.field] : [])));
  for (const [name, field] of Object.entries(allFields(entity))) {
    if (isWritable(field)) expect(mapped, name).toContain(name);
  }
  expect(mapped).toContain('id');
  const started = await startImport(server, {
    entity: resource,
    uploadId: uploaded.body.uploadId,
    mapping: uploaded.body.columns.map((c) => c.target),
    duplicates: { key: 'id', action: 'update' },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const job = await waitForImport(server, started.body.id, undefined, 180_000);
  return { job, before, after: await stored(entity), entries };
}

/** Nothing written: every row as it was, no history entry, every record counted unchanged. */
async function expectUnchanged({ job, before, after, entries }: Awaited<ReturnType<typeof roundTrip>>) {
  expect(job.problems.slice(0, 5)).toEqual([]);
  const changed = [...before].filter(([id, row]) => after.get(id) !== row);
  expect(
    changed.slice(0, 2).map(([id, row]) => ({ before: row, after: after.get(id) })),
    `${changed.length} rows changed`,
  ).toEqual([]);
  expect(job).toMatchObject({ status: 'succeeded', created: 0, updated: 0, unchanged: before.size, failed: 0 });
  expect(after.size).toBe(before.size);
  expect(await historyEntries()).toBe(entries);
}

describe.each(
  customizableResources.flatMap((resource) => (['csv', 'xlsx'] as const).map((format) => [resource, format] as const)),
)('every one of %s exported as %s, imported again with "update" by id', (resource, format) => {
  it('changes nothing', async () => {
    const result = await roundTrip(resource, format);
    expect(result.before.size).toBeGreaterThanOrEqual(rowsOf(resource));
    await expectUnchanged(result);
  }, 240_000);
});

describe('notes and tasks, whose record is set once', () => {
  let companyIds: number[];

  beforeAll(async () => {
    const two = await server.database.rows<{ id: number }>(
      sql`select id::int as id from companies order by id limit 2`,
    );
    companyIds = two.map((c) => c.id);
    const [company, other] = companyIds;
    const notes = (n: number) => ({ entity: 'companies', recordId: n % 2 ? company : other, body: `=Note ${n}` });
    const tasks = (n: number) => ({ title: `Task ${n}`, status: 'Open', entity: 'companies', recordId: company });
    for (const [resource, values] of [
      ['notes', notes],
      ['tasks', tasks],
    ] as const) {
      const entity = await currentDescription(server.database, findEntity(resource) as EntityDescription);
      const rows = Array.from({ length: 20 }, (_, n) => createSchema(entity).parse(values(n)));
      await server.database.db.transaction((tx) => createRecords(server.database, entity, rows, systemActor, tx));
    }
  });

  it.each([
    ['notes', 'csv'],
    ['notes', 'xlsx'],
    ['tasks', 'csv'],
    ['tasks', 'xlsx'],
  ] as const)('%s exported as %s and imported again with update change nothing', async (resource, format) => {
    await expectUnchanged(await roundTrip(resource, format));
  });

  it('refuses a file that moves a note to another record, and writes nothing', async () => {
    const [first] = await server.database.rows<{ id: number; record: number }>(
      sql`select id::int as id, record_id::int as record from notes order by id limit 1`,
    );
    // The export names a note's record by its id.
    const from = String(first?.record);
    const to = String(companyIds.find((id) => id !== first?.record));
    const moved = (file: Uint8Array) => {
      const lines = new TextDecoder().decode(file).split('\n');
      const row = lines.findIndex((line) => line.startsWith(`${first?.id},`));
      expect(lines[row]).toContain(`,companies,${from},`);
      lines[row] = (lines[row] as string).replace(`,companies,${from},`, `,companies,${to},`);
      return new TextEncoder().encode(lines.join('\n'));
    };
    const { job, before, after } = await roundTrip('notes', 'csv', moved);
    expect(job.status).toBe('failed');
    expect(job.problems).toContainEqual(
      expect.objectContaining({ field: 'recordId', message: 'Record cannot be changed once the record is made' }),
    );
    expect(after).toEqual(before);
  });
});
