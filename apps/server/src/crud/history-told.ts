import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import { sql } from 'drizzle-orm';
import { type Database, type Executor, jsonValue } from '../db/client.ts';
import { currentDescription } from './custom-fields.ts';
import { createdChangesFromColumns } from './history-writes.ts';

/**
 * The values of a created entry that does not keep them (`changes_elided`:
 * the rows an import creates, docs/decisions/0040), told when it is read.
 * A row's history tells it from its first values forward, so its first
 * values can be told backward: the row as it is now, then each later entry
 * about it, newest first, puts back what it changed (an update's old values;
 * a deletion's values are the row as it was before it, so they start over).
 * Generated fields (a company's domain, from its website) are left out: an
 * update's entry names only the fields it set, so theirs cannot be told back.
 */

type Changes = Record<string, [unknown, unknown]>;

/** An elided entry: whose timeline it is on, and the row it is about (`subject` when not the record itself). */
export interface ElidedEntry {
  id: number;
  entity: string;
  recordId: number;
  subjectEntity: string | null;
  subjectId: number | null;
}

const empty = (value: unknown) => value === null || value === undefined || (Array.isArray(value) && value.length === 0);

/** The changes the entry would have kept: each non-empty first value as `[null, value]`. */
export async function toldChanges(database: Database, entry: ElidedEntry, executor?: Executor): Promise<Changes> {
  const rowEntity = findEntity(entry.subjectEntity ?? entry.entity);
  if (!rowEntity) return {};
  const rowId = entry.subjectId ?? entry.recordId;
  const described: EntityDescription = await currentDescription(database, rowEntity);
  const [now] = await database.rows<{ changes: Changes | string }>(
    sql`select ${createdChangesFromColumns(described)} as changes
      from ${sql.identifier(described.table)} c where c.id = ${rowId}`,
    executor,
  );
  // The row's later entries on the same timeline, newest first (a link row is on two; each tells its own).
  const later = await database.rows<{ action: string; changes: Changes | string }>(
    sql`select h.action, h.changes from record_history h
      where h.entity = ${entry.entity} and h.record_id = ${entry.recordId}
        and h.subject_entity is not distinct from ${entry.subjectEntity}::text
        and h.subject_id is not distinct from ${entry.subjectId}::bigint
        and (h.created_at, h.id) > (select e.created_at, e.id from record_history e where e.id = ${entry.id})
      order by h.created_at desc, h.id desc`,
    executor,
  );
  let values: Record<string, unknown> | null = now
    ? Object.fromEntries(Object.entries(jsonValue(now.changes)).map(([field, pair]) => [field, pair[1]]))
    : null;
  for (const { action, changes } of later) {
    const pairs = Object.entries(jsonValue(changes));
    if (action === 'deleted') {
      values = Object.fromEntries(pairs.map(([field, pair]) => [field, pair[0]]));
    } else if (values !== null) {
      for (const [field, pair] of pairs) values[field] = pair[0];
    }
  }
  const fields = allFields(described);
  // A row gone with no entry saying so tells nothing rather than a guess.
  return Object.fromEntries(
    Object.entries(values ?? {})
      .filter(([field, value]) => !empty(value) && !fields[field]?.generated)
      .map(([field, value]) => [field, [null, value]]),
  );
}

/**
 * Writes the told values into the elided created entries of these records'
 * own timelines: before a merge moves one timeline into another, where the
 * other record's entries would be read as this one's.
 */
export async function keepToldChanges(
  database: Database,
  entity: EntityDescription,
  ids: readonly number[],
  executor: Executor,
): Promise<void> {
  const elided = await database.rows<{ id: number | string; record_id: number | string }>(
    sql`select h.id, h.record_id from record_history h
      where h.entity = ${entity.name} and h.record_id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}) and h.subject_entity is null and h.changes_elided`,
    executor,
  );
  for (const row of elided) {
    const entry = {
      id: Number(row.id),
      entity: entity.name,
      recordId: Number(row.record_id),
      subjectEntity: null,
      subjectId: null,
    };
    const changes = await toldChanges(database, entry, executor);
    await database.rows(
      sql`update record_history set changes = ${JSON.stringify(changes)}::jsonb, changes_elided = false
        where id = ${entry.id}`,
      executor,
    );
  }
}
