import { allFields, type EntityDescription, isWritable } from '@data-platform/shared/entities/entity';
import { createSchema } from '@data-platform/shared/entities/record-schema';
import { entityList, findEntity } from '@data-platform/shared/entities/registry';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../auth/actor.ts';
import { adminClient } from '../testing/factories.ts';
import { defineEveryCustomFieldType, sampleValues } from '../testing/sample-values.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { currentDescription } from './custom-fields.ts';
import { ROOT, selectionSql } from './list-compiler.ts';
import { createRecords } from './records.ts';

/**
 * Lists and gets send a row's JSON built as json (decision 0041), where the
 * rest of the server builds jsonb: the two must hold the same JSON for every
 * field type, custom fields included, and for values whose text is awkward.
 */
describe("a row's JSON built as json and as jsonb", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    await defineEveryCustomFieldType(adminClient(server));
  });
  afterAll(async () => server?.close());

  const differing = async (entity: EntityDescription) => {
    const described = await currentDescription(server.database, entity);
    const query = { select: undefined, join: [] };
    const [row] = await server.database.rows<{ rows: number; differ: number; sample: string | null }>(
      sql`select count(*)::int as rows,
          count(*) filter (where (${selectionSql(described, query, [], 'json')})::jsonb
            is distinct from ${selectionSql(described, query, [], 'jsonb')})::int as differ,
          min((${selectionSql(described, query, [], 'json')})::text) as sample
        from ${sql.identifier(described.table)} ${sql.identifier(ROOT)}`,
    );
    return row as { rows: number; differ: number; sample: string | null };
  };

  it('hold the same values for every field type of companies, contacts and funds, awkward text too', async () => {
    const textField: Record<string, string> = { companies: 'name', contacts: 'firstName', funds: 'name' };
    for (const [name, text] of Object.entries(textField)) {
      const entity = await currentDescription(server.database, findEntity(name) as EntityDescription);
      const writable = Object.entries(allFields(entity))
        .filter(([, field]) => isWritable(field))
        .map(([field]) => field);
      const schema = createSchema(entity);
      const rows = [1, 2].map((n) => schema.parse(sampleValues(entity, writable, n)));
      const awkward = 'Line one\nline "two"\t\\ \u00e9\u4e2d\u{1F600} </script>';
      rows.push(schema.parse({ ...sampleValues(entity, writable, 3), [text]: awkward }));
      await server.database.db.transaction((tx) => createRecords(server.database, entity, rows, systemActor, tx));
      const found = await differing(entity);
      expect(found.rows, name).toBeGreaterThanOrEqual(rows.length);
      expect(found.differ, `${name}: ${found.sample}`).toBe(0);
      // It is json's text indeed (its own spacing), not jsonb's.
      expect(found.sample).toContain('" : ');
    }
  });

  it('hold the same values for whatever rows every other record type has', async () => {
    for (const entity of entityList) {
      if (entity.kind === 'link') continue;
      const found = await differing(entity);
      expect(found.differ, `${entity.name}: ${found.sample}`).toBe(0);
    }
  });
});
