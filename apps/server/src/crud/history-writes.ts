import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import { fieldTypeModule } from '@data-platform/shared/fields/field-types';
import type { HistoryAction } from '@data-platform/shared/history';
import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { columnName } from '../db/columns.ts';
import { tableOf } from '../db/schema.ts';
import { column, jsonValueExpr, nameLiteral, PAIRS_PER_CHUNK } from './sql-fragments.ts';

/**
 * The rows of record_history a write adds, as SQL over the written rows
 * (docs/decisions/0028). Whose timeline an entry belongs to follows from
 * the description alone:
 * - a record of an `attachable` entity (companies, deals…): its own;
 * - a row `attachedTo` a record (a note, a file, a task): that record's,
 *   the row named as the entry's subject;
 * - a link row (`kind: 'link'`): the timelines of the records at both ends.
 * Other rows (users, roles, reference data) keep no history.
 */

/** Fields every row has whose change is the write itself, not what it changed. */
const bookkeeping = ['id', 'createdAt', 'updatedAt', 'createdById', 'updatedById', 'version'];
const bookkeepingList = sql.raw(bookkeeping.map((name) => `'${name}'`).join(', '));

/**
 * Where rows of `entity` are told: a record id and its type per written row
 * `c`, read from the row's JSON `c.j`, or with `fromColumns` from its own columns.
 */
function timelinesOf(entity: EntityDescription, fromColumns = false): { entity: SQL; id: SQL; subject: boolean }[] {
  const text = (name: string) => (fromColumns ? column('c', columnName(name)) : sql`(c.j->>${nameLiteral(name)})`);
  const id = (name: string) => (fromColumns ? column('c', columnName(name)) : sql`${text(name)}::bigint`);
  if (entity.attachable) return [{ entity: nameLiteral(entity.name), id: sql`c.id`, subject: false }];
  if (entity.attachedTo) {
    const { entityField, idField } = entity.attachedTo;
    return [{ entity: text(entityField), id: id(idField), subject: true }];
  }
  if (entity.kind === 'link') {
    return Object.entries(entity.fields)
      .filter(([, field]) => field.type === 'reference' && field.to && findEntity(field.to)?.attachable)
      .map(([name, field]) => ({ entity: nameLiteral(field.to as string), id: id(name), subject: true }));
  }
  return [];
}

/** Whether writes of `entity` add history entries. */
export function keepsHistory(entity: EntityDescription): boolean {
  return timelinesOf(entity).length > 0;
}

/** How the entry's `changes` are read from a written row `c` (and its earlier values `p` on update). */
export type ChangesFrom = 'created' | 'updated' | 'deleted';

/**
 * A row's values as a created entry keeps them, from its own columns (`c`,
 * the table's row): the same object `changesSql('created')` reads from its
 * JSON. What an elided created entry is told from (history-told.ts).
 */
export function createdChangesFromColumns(entity: EntityDescription): SQL {
  const fields = Object.entries(allFields(entity)).filter(([name]) => !bookkeeping.includes(name));
  const pairs = fields.map(
    ([name, field]) => sql`${nameLiteral(name)}::text, jsonb_build_array(null, ${jsonValueExpr('c', name, field)})`,
  );
  // A field without a value (null, an empty list) is left out.
  const empty = fields.map(([name, field]) => {
    const { storage } = fieldTypeModule(field.type);
    const condition = field.custom
      ? sql`coalesce(${jsonValueExpr('c', name, field)}, 'null'::jsonb) in ('null'::jsonb, '[]'::jsonb)`
      : storage.array
        ? sql`coalesce(cardinality(${column('c', columnName(name))}), 0) = 0`
        : sql`${column('c', columnName(name))} is null`;
    return sql`case when ${condition} then ${nameLiteral(name)} end`;
  });
  const chunks: SQL[] = [];
  for (let i = 0; i < pairs.length; i += PAIRS_PER_CHUNK) {
    chunks.push(sql`jsonb_build_object(${sql.join(pairs.slice(i, i + PAIRS_PER_CHUNK), sql`, `)})`);
  }
  if (chunks.length === 0) return sql`'{}'::jsonb`;
  return sql`((${sql.join(chunks, sql` || `)}) - array_remove(array[${sql.join(empty, sql`, `)}]::text[], null))`;
}

function changesSql(from: ChangesFrom): SQL {
  if (from === 'updated') {
    return sql`(select jsonb_object_agg(k, jsonb_build_array(p.j->k, c.j->k)) from jsonb_object_keys(p.j) k
      where k not in (${bookkeepingList}) and (p.j->k) is distinct from (c.j->k))`;
  }
  const pair = from === 'created' ? sql`jsonb_build_array(null, v)` : sql`jsonb_build_array(v, null)`;
  return sql`coalesce((select jsonb_object_agg(k, ${pair}) from jsonb_each(c.j) e(k, v)
      where k not in (${bookkeepingList}) and v not in ('null'::jsonb, '[]'::jsonb)), '{}'::jsonb)`;
}

export interface HistoryInsert {
  action: HistoryAction;
  /** Which values the entry keeps: a new row's, an update's old and new, a deleted row's. */
  changes: ChangesFrom;
  actorId: number | null;
  /** On update: the rows as they were, `(id, j)` with the fields the update sets. */
  prior?: SQL;
  /** A deleted record's snapshot (its own entry only). */
  snapshot?: unknown;
  /** Each deleted record's own snapshot, an expression over its source row `c` (its own entry only). */
  snapshotSql?: SQL;
  /** Leaves out the entries on this record's own timeline (the rows deleted with it). */
  except?: { entity: string; id: number };
  /**
   * The source's rows are the table's own columns (`returning t.*`), not
   * `(id, j)`; for new rows only, whose entries then elide their values
   * (`changes_elided`, docs/decisions/0040): an import's rows.
   */
  fromColumns?: boolean;
}

/**
 * `insert into record_history ... select ... from <source> c`: the entries of
 * the rows of `source` (columns `id` and `j`, the row's JSON). Undefined when
 * `entity` keeps no history. An update that changed no value adds no entry
 * (its changes are null).
 */
export function historyInsertSql(entity: EntityDescription, source: SQL, insert: HistoryInsert): SQL | undefined {
  const timelines = timelinesOf(entity, insert.fromColumns);
  if (timelines.length === 0) return undefined;
  if (insert.fromColumns && insert.changes !== 'created') throw new Error('Only new rows are read from their columns');
  // A new row's values are in the row itself: told from it when read, not written twice (decision 0040).
  const changes = insert.fromColumns ? sql`'{}'::jsonb` : changesSql(insert.changes);
  const from = insert.prior ? sql`${source} c join ${insert.prior} p on p.id = c.id` : sql`${source} c`;
  const snapshot =
    insert.snapshotSql ??
    (insert.snapshot === undefined ? sql`null::jsonb` : sql`${JSON.stringify(insert.snapshot)}::jsonb`);
  // The snapshot goes on the record's own entry, never on the entries of the records at a link's other end.
  const selects = timelines.map(
    (timeline) => sql`select ${timeline.entity}::text as entity, ${timeline.id} as record_id,
      ${timeline.subject ? nameLiteral(entity.name) : sql`null`}::text as subject_entity,
      ${timeline.subject ? sql`c.id` : sql`null`}::bigint as subject_id, ${changes} as changes,
      ${timeline.subject ? sql`null::jsonb` : snapshot} as snapshot from ${from}`,
  );
  const except = insert.except
    ? sql` and not (x.entity = ${insert.except.entity} and x.record_id = ${insert.except.id})`
    : sql``;
  return sql`insert into record_history (entity, record_id, action, subject_entity, subject_id, actor_id, changes, snapshot, changes_elided)
    select x.entity, x.record_id, ${insert.action}::text, x.subject_entity, x.subject_id, ${insert.actorId}::bigint,
      x.changes, x.snapshot, ${insert.fromColumns === true}::boolean
    from (${sql.join(selects, sql` union all `)}) x
    where x.record_id is not null and x.changes is not null${except}`;
}

/**
 * `delete from record_history ...`: the created entries an import wrote for
 * the rows of `source` (the table's own columns, `returning t.*`), on each
 * timeline they were told on, and no other entry. Taking back an import that
 * never finished (all or nothing) erases them with the rows, so that it
 * leaves no trace in anyone's history (docs/decisions/0044). Undefined when
 * `entity` keeps no history.
 */
export function historyEraseSql(entity: EntityDescription, source: SQL): SQL | undefined {
  const timelines = timelinesOf(entity, true);
  if (timelines.length === 0) return undefined;
  const selects = timelines.map(
    (timeline) => sql`select ${timeline.entity}::text as entity, ${timeline.id}::bigint as record_id,
      ${timeline.subject ? nameLiteral(entity.name) : sql`null`}::text as subject_entity,
      ${timeline.subject ? sql`c.id` : sql`null`}::bigint as subject_id from ${source} c`,
  );
  return sql`delete from record_history h using (${sql.join(selects, sql` union all `)}) x
    where h.entity = x.entity and h.record_id = x.record_id
      and h.subject_entity is not distinct from x.subject_entity and h.subject_id is not distinct from x.subject_id
      and h.action = 'created' and h.changes_elided`;
}

/**
 * The stored columns of an entity's table (not the generated ones), from
 * the Drizzle table built from its description: what a snapshot row is
 * written back into.
 */
export function storedColumns(entity: EntityDescription): string[] {
  const columns = getTableColumns(tableOf(entity.name)) as Record<string, PgColumn>;
  return Object.values(columns)
    .filter((col) => !col.generated)
    .map((col) => col.name);
}
