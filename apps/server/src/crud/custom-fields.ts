import {
  type CustomFieldDefinition,
  definitionFields,
  entityFieldTypes,
  isCustomizable,
  withCustomFields,
} from '@data-platform/shared/entities/custom-fields';
import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { sql } from 'drizzle-orm';
import { ChangeFeed } from '../db/change-feed.ts';
import type { Database } from '../db/client.ts';
import { columnName } from '../db/columns.ts';

interface Loaded {
  /** Changes whenever a definition is added, changed or deleted. */
  stamp: string;
  definitions: readonly CustomFieldDefinition[];
}

/**
 * The definitions of one database in this process. While the `fields`
 * notifications (migration 0006) are heard, they are read once and kept
 * until one arrives: no statement per request. While they are not, each call
 * asks the database for the stamp, as the only way to see another process's
 * change at once.
 */
class FieldCache {
  /** Read while listening, valid until a notification. */
  current: readonly CustomFieldDefinition[] | undefined;
  /** Read through the stamp, when not listening. */
  stamped: Loaded | undefined;
  readonly feed: ChangeFeed;

  constructor(database: Database) {
    this.feed = new ChangeFeed(
      database,
      'fields',
      () => this.drop(),
      () => this.drop(),
    );
  }

  drop(): void {
    this.current = undefined;
  }
}

const caches = new WeakMap<Database, FieldCache>();

function cacheOf(database: Database): FieldCache {
  let cache = caches.get(database);
  if (!cache) {
    cache = new FieldCache(database);
    caches.set(database, cache);
  }
  return cache;
}

async function readDefinitions(database: Database): Promise<readonly CustomFieldDefinition[]> {
  const columns = sql.join(
    ['id', ...definitionFields].map((field) => sql`${sql.identifier(columnName(field))} as ${sql.identifier(field)}`),
    sql`, `,
  );
  const rows = await database.rows<CustomFieldDefinition>(
    sql`select ${columns} from ${sql.identifier(entityFieldTypes.table)} order by id`,
  );
  // node-postgres reads bigint as text.
  return Object.freeze(
    rows.map((row) => ({ ...row, id: Number(row.id), groupId: row.groupId == null ? null : Number(row.groupId) })),
  );
}

/**
 * The custom field definitions. Held while change notifications are heard
 * (a change, committed by any process, drops them before the next request
 * can see it, short of the moment the notification takes to arrive).
 * Otherwise a stamp is asked of the database on each call and the
 * definitions are read again only when it changed. The stamp names every
 * definition by id and version: a count and the latest `updated_at` missed a
 * change whose transaction began before another's (`now()` is the
 * transaction's start) but committed after it.
 */
export async function customFieldDefinitions(database: Database): Promise<readonly CustomFieldDefinition[]> {
  const cache = cacheOf(database);
  if (cache.feed.trusted) {
    if (cache.current) return cache.current;
    const begun = cache.feed.begin();
    const definitions = await readDefinitions(database);
    if (cache.feed.mayKeep(begun)) cache.current = definitions;
    return definitions;
  }
  const [row] = await database.rows<{ stamp: string }>(
    sql`select coalesce(string_agg(id::text || '.' || version::text, ',' order by id), '') as stamp
      from ${sql.identifier(entityFieldTypes.table)}`,
  );
  const stamp = row?.stamp ?? '';
  if (cache.stamped?.stamp === stamp) return cache.stamped.definitions;
  const definitions = await readDefinitions(database);
  cache.stamped = { stamp, definitions };
  return definitions;
}

/** The entity as requests see it: with its custom fields when it has any. */
export async function currentDescription(database: Database, entity: EntityDescription): Promise<EntityDescription> {
  if (!isCustomizable(entity)) return entity;
  return withCustomFields(entity, await customFieldDefinitions(database));
}
