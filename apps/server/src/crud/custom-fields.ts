import {
  type CustomFieldDefinition,
  definitionFields,
  entityFieldTypes,
  isCustomizable,
  withCustomFields,
} from '@data-platform/shared/entities/custom-fields';
import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { columnName } from '../db/columns.ts';

interface Loaded {
  /** Changes whenever a definition is added, changed or deleted. */
  stamp: string;
  definitions: readonly CustomFieldDefinition[];
}

const loaded = new WeakMap<Database, Loaded>();

/**
 * The custom field definitions, read again only when they changed. The
 * stamp is asked of the database on each call, so that every server process
 * over one PostgreSQL sees a change at once; it reads a table of a few rows.
 * It names every definition by id and version: a count and the latest
 * `updated_at` missed a change whose transaction began before another's
 * (`now()` is the transaction's start) but committed after it.
 */
export async function customFieldDefinitions(database: Database): Promise<readonly CustomFieldDefinition[]> {
  const [row] = await database.rows<{ stamp: string }>(
    sql`select coalesce(string_agg(id::text || '.' || version::text, ',' order by id), '') as stamp
      from ${sql.identifier(entityFieldTypes.table)}`,
  );
  const stamp = row?.stamp ?? '';
  const cached = loaded.get(database);
  if (cached?.stamp === stamp) return cached.definitions;
  const columns = sql.join(
    ['id', ...definitionFields].map((field) => sql`${sql.identifier(columnName(field))} as ${sql.identifier(field)}`),
    sql`, `,
  );
  const rows = await database.rows<CustomFieldDefinition>(
    sql`select ${columns} from ${sql.identifier(entityFieldTypes.table)} order by id`,
  );
  // node-postgres reads bigint as text.
  const definitions = Object.freeze(
    rows.map((row) => ({ ...row, id: Number(row.id), groupId: row.groupId == null ? null : Number(row.groupId) })),
  );
  loaded.set(database, { stamp, definitions });
  return definitions;
}

/** The entity as requests see it: with its custom fields when it has any. */
export async function currentDescription(database: Database, entity: EntityDescription): Promise<EntityDescription> {
  if (!isCustomizable(entity)) return entity;
  return withCustomFields(entity, await customFieldDefinitions(database));
}
