import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import { sql } from 'drizzle-orm';
import { type Database, type Executor, jsonValue } from '../db/client.ts';
import { currentDescription } from './custom-fields.ts';
import { createdChangesFromColumns } from './history-writes.ts';
import { pgArrayLiteral } from './sql-fragments.ts';

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
  return (await toldChangesOf(database, [entry], executor)).get(entry.id) ?? {};
}

/**
 * The told changes of many elided entries, by entry id, in a statement per
 * kind of row they are about and one for all their later entries (a history
 * page of imported notes tells them all at once).
 */
export async function toldChangesOf(
  database: Database,
  entries: readonly ElidedEntry[],
  executor?: Executor,
): Promise<Map<number, Changes>> {
  const told = new Map<number, Changes>();
  if (entries.length === 0) return told;
  const byRowEntity = new Map<string, ElidedEntry[]>();
  for (const entry of entries) {
    const name = entry.subjectEntity ?? entry.entity;
    const group = byRowEntity.get(name);
    if (group) group.push(entry);
    else byRowEntity.set(name, [entry]);
  }
  // The entries' later entries on the same timeline, newest first (a link row is on two; each tells its own).
  const later = await database.rows<{ entry_id: number | string; action: string; changes: Changes | string }>(
    sql`select e.id as entry_id, h.action, h.changes from record_history e
      join record_history h on h.entity = e.entity and h.record_id = e.record_id
        and h.subject_entity is not distinct from e.subject_entity
        and h.subject_id is not distinct from e.subject_id
        and (h.created_at, h.id) > (e.created_at, e.id)
      where e.id = any(${pgArrayLiteral(entries.map((entry) => entry.id))}::bigint[])
      order by e.id, h.created_at desc, h.id desc`,
    executor,
  );
  const laterOf = new Map<number, { action: string; changes: Changes | string }[]>();
  for (const row of later) {
    const id = Number(row.entry_id);
    const rows = laterOf.get(id);
    if (rows) rows.push(row);
    else laterOf.set(id, [row]);
  }
  for (const [name, group] of byRowEntity) {
    const rowEntity = findEntity(name);
    if (!rowEntity) continue;
    const described: EntityDescription = await currentDescription(database, rowEntity);
    const rowIds = [...new Set(group.map((entry) => entry.subjectId ?? entry.recordId))];
    const now = await database.rows<{ id: number | string; changes: Changes | string }>(
      sql`select c.id, ${createdChangesFromColumns(described)} as changes
        from ${sql.identifier(described.table)} c where c.id = any(${pgArrayLiteral(rowIds)}::bigint[])`,
      executor,
    );
    const nowOf = new Map(now.map((row) => [Number(row.id), jsonValue(row.changes) as Changes]));
    const fields = allFields(described);
    for (const entry of group) {
      const values = toldBack(nowOf.get(entry.subjectId ?? entry.recordId), laterOf.get(entry.id) ?? []);
      told.set(
        entry.id,
        Object.fromEntries(
          Object.entries(values ?? {})
            .filter(([field, value]) => !empty(value) && !fields[field]?.generated)
            .map(([field, value]) => [field, [null, value]]),
        ),
      );
    }
  }
  return told;
}

/**
 * A row's first values: its values now, then each later entry, newest first,
 * puts back its old ones. A row gone with no entry saying so tells nothing
 * (null) rather than a guess.
 */
function toldBack(
  now: Changes | undefined,
  later: readonly { action: string; changes: Changes | string }[],
): Record<string, unknown> | null {
  let values: Record<string, unknown> | null = now
    ? Object.fromEntries(Object.entries(now).map(([field, pair]) => [field, pair[1]]))
    : null;
  for (const { action, changes } of later) {
    const pairs = Object.entries(jsonValue(changes) as Changes);
    if (action === 'deleted') {
      values = Object.fromEntries(pairs.map(([field, pair]) => [field, pair[0]]));
    } else if (values !== null) {
      for (const [field, pair] of pairs) values[field] = pair[0];
    }
  }
  return values;
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
  const entries = elided.map((row) => ({
    id: Number(row.id),
    entity: entity.name,
    recordId: Number(row.record_id),
    subjectEntity: null,
    subjectId: null,
  }));
  const told = await toldChangesOf(database, entries, executor);
  for (const entry of entries) {
    await database.rows(
      sql`update record_history set changes = ${JSON.stringify(told.get(entry.id) ?? {})}::jsonb, changes_elided = false
        where id = ${entry.id}`,
      executor,
    );
  }
}
