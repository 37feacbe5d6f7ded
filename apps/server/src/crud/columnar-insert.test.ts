import { allFields, type EntityDescription, isWritable } from '@data-platform/shared/entities/entity';
import { createSchema } from '@data-platform/shared/entities/record-schema';
import { entityList, findEntity } from '@data-platform/shared/entities/registry';
import { fieldTypeModule } from '@data-platform/shared/fields/field-types';
import type { HistoryPage } from '@data-platform/shared/history';
import { getTableColumns, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../auth/actor.ts';
import { CUSTOM_COLUMN, columnName } from '../db/columns.ts';
import { tableOf } from '../db/schema.ts';
import { type ApiClient, adminClient, factories } from '../testing/factories.ts';
import { defineEveryCustomFieldType, sampleValues } from '../testing/sample-values.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { currentDescription } from './custom-fields.ts';
import { createRecords } from './records.ts';

/**
 * The columnar insert (columnarInsertSql) writes a field a row leaves unset
 * as null: right only while no writable field's column has a default of its
 * own but arrays (written `{}`, their default) and the custom object.
 */
describe('the columnar insert', () => {
  it('finds no default it would skip: no writable field column defaults to anything but null, arrays aside', () => {
    const defaulted: string[] = [];
    for (const entity of entityList) {
      const columns = getTableColumns(tableOf(entity.name)) as Record<string, PgColumn>;
      const byName = new Map(Object.values(columns).map((column) => [column.name, column]));
      for (const [name, field] of Object.entries(allFields(entity))) {
        if (!isWritable(field) || field.custom || fieldTypeModule(field.type).storage.array) continue;
        if (byName.get(columnName(name))?.hasDefault) defaulted.push(`${entity.name}.${name}`);
      }
      expect(byName.get(CUSTOM_COLUMN)?.hasDefault ?? true).toBe(true);
    }
    // A field listed here needs columnarInsertSql to write its default for the rows that leave it unset.
    expect(defaulted).toEqual([]);
  });

  describe('rows that set different fields, in one statement', () => {
    let server: TestServer;
    let api: ApiClient;
    let companies: EntityDescription;

    beforeAll(async () => {
      server = await startTestServer();
      api = adminClient(server);
      await defineEveryCustomFieldType(api);
      companies = await currentDescription(server.database, findEntity('companies') as EntityDescription);
    });
    afterAll(async () => server?.close());

    it('stores each value as the API reads it back, unset ones as the API would on create, ids in the order given', async () => {
      const writable = Object.entries(allFields(companies))
        .filter(([, field]) => isWritable(field))
        .map(([name]) => name);
      const schema = createSchema(companies);
      const full = (n: number) => schema.parse({ ...sampleValues(companies, writable, n), name: `Columnar full ${n}` });
      const rows = [
        full(1),
        schema.parse({ name: 'Columnar bare' }),
        full(2),
        schema.parse({ name: 'Columnar tags', tags: ['x'] }),
      ];
      const created = await server.database.db.transaction((tx) =>
        createRecords(server.database, companies, rows, systemActor, tx),
      );
      expect(created).toHaveLength(rows.length);
      for (const [i, { id, version }] of created.entries()) {
        expect(version).toBe(1);
        const stored = await api.get(`/api/v1/companies/${id}`);
        expect(stored.status).toBe(200);
        // What createRecord stores for the same body: the same through the API.
        const one = await api.post('/api/v1/companies', rows[i]);
        expect(one.status).toBe(201);
        const strip = (record: Record<string, unknown>) => {
          const { id: _id, createdAt, updatedAt, createdById, updatedById, version: _v, ...rest } = record;
          return rest;
        };
        expect(strip(stored.body as Record<string, unknown>)).toEqual(strip(one.body as Record<string, unknown>));
        expect(stored.body).toMatchObject({ name: rows[i]?.name });
        // Its history entry keeps no values (decision 0040), yet tells what createRecord's keeps from the
        // row's JSON, but for the generated fields (a domain follows from its website).
        const changes = async (record: number) => {
          const page = await api.get<HistoryPage>(`/api/v1/companies/${record}/history`);
          expect(page.body.data).toHaveLength(1);
          return page.body.data[0]?.changes ?? [];
        };
        const bulk = await changes(id);
        const single = await changes((one.body as { id: number }).id);
        expect(bulk).toEqual(single.filter((change) => !allFields(companies)[change.field]?.generated));
        expect(bulk.length).toBeGreaterThan(0);
      }
    }, 60_000);

    it('puts bulk-created notes and links on the timelines they belong to, as one at a time does', async () => {
      const make = factories(api);
      const company = await make.company();
      const contact = await make.contact();
      // The created entries about the company's notes and links, oldest first, as the API tells them.
      const history = async () => {
        const page = await api.get<HistoryPage>(`/api/v1/companies/${company.id}/history`, { limit: 100 });
        return page.body.data
          .filter((entry) => entry.action === 'created' && entry.subject !== null)
          .reverse()
          .map((entry) => ({
            subject: entry.subject?.entity,
            changes: entry.changes.filter((change) => !['body', 'contactId'].includes(change.field)),
          }));
      };
      const elided = async () =>
        server.database.rows<{ changes_elided: boolean }>(
          sql`select changes_elided from record_history
            where entity = 'companies' and record_id = ${company.id} and subject_entity is not null order by id`,
        );
      const described = (name: string) => currentDescription(server.database, findEntity(name) as EntityDescription);
      const [notes, links] = await Promise.all([described('notes'), described('contactCompanies')]);
      // One at a time, through the API.
      await make.note('companies', company.id, 'Single note');
      await make.link('contactCompanies', { contactId: contact.id, companyId: company.id, role: 'Founder' });
      const single = await history();
      expect(single.map((entry) => entry.subject)).toEqual(['notes', 'contactCompanies']);
      // The same in bulk: the entries say the same (but for the note's text and the link's other end).
      const other = await make.contact();
      await server.database.db.transaction(async (tx) => {
        await createRecords(
          server.database,
          notes,
          [createSchema(notes).parse({ entity: 'companies', recordId: company.id, body: 'Bulk note' })],
          systemActor,
          tx,
        );
        await createRecords(
          server.database,
          links,
          [createSchema(links).parse({ contactId: other.id, companyId: company.id, role: 'Founder' })],
          systemActor,
          tx,
        );
      });
      const both = await history();
      expect(both.slice(2)).toEqual(single);
      expect((await elided()).map((row) => row.changes_elided)).toEqual([false, false, true, true]);
    }, 60_000);
  });
});
