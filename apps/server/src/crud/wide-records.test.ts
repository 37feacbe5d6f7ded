import { customFieldTypes, optionTypes } from '@data-platform/shared/entities/custom-fields';
import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import { customizableResources, entities } from '@data-platform/shared/entities/registry';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, adminClient, type Row } from '../testing/factories.ts';
import { sampleValues } from '../testing/sample-values.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { currentDescription } from './custom-fields.ts';

/**
 * A record type with 200 custom fields (one of every custom type over and
 * over) goes every generic path whole: rows past 45 fields are built from
 * several `jsonb_build_object` calls, which must stay one JSON object in
 * creates, reads, lists, queries, updates and exports.
 */

const WIDTH = 200;
let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  admin = adminClient(server);
  // Defined in one statement per record type: 1,200 POSTs would only make the test slow.
  for (const resource of customizableResources) {
    await server.database.rows(
      sql`insert into entity_field_types (entity, name, type, options, position)
        select ${resource}, 'Wide ' || lpad(n::text, 3, '0'),
          (${`{${customFieldTypes.join(',')}}`}::text[])[1 + n % ${customFieldTypes.length}],
          '{Alpha,Beta,Gamma}', n
        from generate_series(1, ${WIDTH}) n`,
    );
  }
  await server.database.rows(
    sql`update entity_field_types set options = '{}' where not (type = any(${`{${[...optionTypes].join(',')}}`}::text[]))`,
  );
  // Written beside the API: its definitions cache hears of them by notification before the first request.
  await server.database.caughtUp();
});

afterAll(async () => server?.close());

/** The entity as requests see it, with the names of its custom fields. */
async function described(resource: string): Promise<{ entity: EntityDescription; custom: string[] }> {
  const entity = await currentDescription(server.database, entities[resource] as EntityDescription);
  const custom = Object.entries(allFields(entity))
    .filter(([, field]) => field.custom)
    .map(([name]) => name);
  return { entity, custom };
}

/** A create body: the required built-in fields and a value for every custom field. */
function bodyOf(entity: EntityDescription, custom: string[], n: number): Record<string, unknown> {
  const required = Object.entries(entity.fields)
    .filter(([, field]) => field.required && !field.custom)
    .map(([name]) => name);
  return { ...sampleValues(entity, required, n), ...sampleValues(entity, custom, n) };
}

describe.each(customizableResources)('%s with 200 custom fields', (resource) => {
  const path = `/api/v1/${resource}`;

  it('creates, reads, lists, queries and updates a record with every field present', async () => {
    const { entity, custom } = await described(resource);
    expect(custom).toHaveLength(WIDTH);
    const seed = Math.floor(Math.random() * 1_000_000);
    const values = bodyOf(entity, custom, seed);

    const created = await admin.post(path, values);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject(values);
    const id = created.body.id;
    const [stored] = await server.database.rows<{ n: number }>(
      sql`select count(*)::int as n from ${sql.identifier(entity.table)} where id = ${id}`,
    );
    expect(stored?.n).toBe(1);

    const read = await admin.get(`${path}/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject(values);

    const last = custom.at(-1) as string;
    const listed = await admin.list(path, { 'filter[id][eq]': id, sort: last });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([expect.objectContaining(values)]);

    const queried = await admin.query(path, { where: { and: [{ field: 'id', op: 'eq', value: id }] }, select: custom });
    expect(queried.status, JSON.stringify(queried.body)).toBe(200);
    expect(queried.body.data).toEqual([{ id, ...sampleValues(entity, custom, seed) }]);

    const changes = sampleValues(entity, custom, seed + 1);
    const updated = await admin.patch(`${path}/${id}`, changes, created.body.version as number);
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject(changes);
    expect((await admin.get<Row>(`${path}/${id}`)).body).toMatchObject(changes);
  });

  it('exports every custom field as CSV and XLSX', async () => {
    const { entity, custom } = await described(resource);
    const created = await admin.post(path, bodyOf(entity, custom, 7));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const labels = custom.map((name) => allFields(entity)[name]?.label);

    const csv = await server.fetch(`${path}/export?format=csv&filter[id][eq]=${created.body.id}`);
    expect(csv.status).toBe(200);
    const [headings, row, ...rest] = parse(await csv.text(), { bom: true }) as string[][];
    expect(headings).toEqual(expect.arrayContaining(labels));
    expect(row).toHaveLength(headings?.length ?? 0);
    expect(rest).toEqual([]);
    expect(row?.[headings?.indexOf('Wide 001') ?? -1]).not.toBe('');

    const xlsx = await server.fetch(`${path}/export?format=xlsx&filter[id][eq]=${created.body.id}`);
    expect(xlsx.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await xlsx.arrayBuffer());
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    expect(sheet.rowCount).toBe(2);
    const sheetHeadings = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(sheetHeadings).toEqual(headings);
  });
});

describe('wide records in relation lists', () => {
  it('lists related records whole with their link', async () => {
    const company = await described('companies');
    const contact = await described('contacts');
    const madeCompany = await admin.post('/api/v1/companies', bodyOf(company.entity, company.custom, 11));
    const madeContact = await admin.post('/api/v1/contacts', bodyOf(contact.entity, contact.custom, 12));
    const link = await admin.post('/api/v1/contactCompanies', {
      contactId: madeContact.body.id,
      companyId: madeCompany.body.id,
    });
    expect(link.status, JSON.stringify(link.body)).toBe(201);

    const related = await admin.list(`/api/v1/companies/${madeCompany.body.id}/contacts`);
    expect(related.status, JSON.stringify(related.body)).toBe(200);
    expect(related.body.data).toEqual([
      expect.objectContaining({ ...sampleValues(contact.entity, contact.custom, 12), link: expect.any(Object) }),
    ]);
  });
});
