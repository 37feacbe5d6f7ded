import { bookkeepingFields, type MergeBody, type MergeResult } from '@data-platform/shared/duplicates';
import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { entityList } from '@data-platform/shared/entities/registry';
import { type SQL, sql } from 'drizzle-orm';
import { readableScope } from '../access/reading.ts';
import type { Actor } from '../auth/actor.ts';
import { recordChange } from '../auth/audit.ts';
import { keepToldChanges } from '../crud/history-told.ts';
import { historyInsertSql } from '../crud/history-writes.ts';
import { ROOT, selectionSql, whereSql } from '../crud/list-compiler.ts';
import { readRecord, updateRecord } from '../crud/records.ts';
import { column, rowJson } from '../crud/sql-fragments.ts';
import type { Database, Executor } from '../db/client.ts';
import { columnName } from '../db/columns.ts';
import { notFound, staleVersion } from './errors.ts';

/**
 * Merging two records of one entity into one (decision 0032), in one
 * transaction: every row of another entity that points at the merged record
 * (a reference field, a link collection's end, a note, file or task attached
 * to it) and its history entries move to the survivor; a link the survivor
 * already has is dropped rather than doubled; the merged record is deleted;
 * the survivor takes the picked values. Everything it touches comes from the
 * descriptions: nothing here names an entity.
 */

/** Every reference to rows of `entity` from other entities' rows, with the uniqueness each takes part in. */
function referencesTo(entity: EntityDescription): { from: EntityDescription; field: string; uniques: string[][] }[] {
  return entityList.flatMap((from) =>
    Object.entries(from.fields)
      .filter(([, field]) => field.type === 'reference' && field.to === entity.name)
      .map(([name, field]) => ({
        from,
        field: name,
        uniques: [...(from.uniques ?? []).filter((group) => group.includes(name)), ...(field.unique ? [[name]] : [])],
      })),
  );
}

/** What a write to another entity's row sets beside the value: its version and who changed it when. */
function touched(entity: EntityDescription, actor: Actor): SQL {
  if (entity.kind === 'reference') return sql``;
  return sql`, version = version + 1, updated_at = now(), updated_by_id = ${actor.userId}`;
}

interface Counts {
  moved: number;
  dropped: number;
}

/**
 * Points the rows of `from` whose `field` names the merged record (and match
 * `also`) at the survivor, with their history entries (an update of that
 * field, docs/decisions/0028) in the same statement, less those on the
 * timeline `except`. Answers how many rows moved.
 */
async function repoint(
  database: Database,
  from: EntityDescription,
  field: string,
  also: SQL,
  survivorId: number,
  mergedId: number,
  actor: Actor,
  tx: Executor,
  except?: { entity: string; id: number },
): Promise<number> {
  const table = sql.identifier(from.table);
  const pointing = sql`${column(ROOT, columnName(field))} = ${mergedId}${also}`;
  const moved = sql`update ${table} ${sql.identifier(ROOT)}
    set ${sql.identifier(columnName(field))} = ${survivorId}${touched(from, actor)}
    where ${pointing} returning ${column(ROOT, 'id')} as id, ${selectionSql(from, { join: [] })} as j`;
  const history = historyInsertSql(from, sql`moved`, {
    action: 'updated',
    changes: 'updated',
    actorId: actor.userId,
    prior: sql`prior`,
    except,
  });
  const rows = await database.rows<{ id: number }>(
    history
      ? sql`with prior as (select ${column(ROOT, 'id')} as id, ${rowJson(from, ROOT, [field])} as j
            from ${table} ${sql.identifier(ROOT)} where ${pointing}),
          moved as (${moved}), history as (${history})
        select id from moved`
      : sql`with moved as (${moved}) select id from moved`,
    tx,
  );
  return rows.length;
}

/** Moves every row pointing at `mergedId` to `survivorId`, dropping those the survivor already has an equal of. */
async function moveReferences(
  database: Database,
  entity: EntityDescription,
  survivorId: number,
  mergedId: number,
  actor: Actor,
  tx: Executor,
): Promise<Counts> {
  const counts: Counts = { moved: 0, dropped: 0 };
  for (const { from, field, uniques } of referencesTo(entity)) {
    const table = sql.identifier(from.table);
    const pointer = columnName(field);
    for (const group of uniques) {
      // The same row on the survivor's side: equal in every other field of the unique group.
      const same = group
        .filter((name) => name !== field)
        .map(
          (name) => sql` and ${column('s', columnName(name))} is not distinct from ${column(ROOT, columnName(name))}`,
        );
      const gone = sql`delete from ${table} ${sql.identifier(ROOT)}
        where ${column(ROOT, pointer)} = ${mergedId}
          and exists (select 1 from ${table} s where ${column('s', pointer)} = ${survivorId}${sql.join(same, sql``)})
        returning ${column(ROOT, 'id')} as id, ${selectionSql(from, { join: [] })} as j`;
      // The dropped link's entry goes on the timelines at its other end; the merged record's is about to go.
      const history = historyInsertSql(from, sql`gone`, {
        action: 'deleted',
        changes: 'deleted',
        actorId: actor.userId,
        except: { entity: entity.name, id: mergedId },
      });
      const dropped = await database.rows<{ id: number }>(
        history
          ? sql`with gone as (${gone}), history as (${history}) select id from gone`
          : sql`with gone as (${gone}) select id from gone`,
        tx,
      );
      counts.dropped += dropped.length;
    }
    // A link's entry goes on the timeline at its other end: on the survivor's it would name no other record.
    counts.moved += await repoint(database, from, field, sql``, survivorId, mergedId, actor, tx, {
      entity: entity.name,
      id: survivorId,
    });
  }
  for (const attached of entityList) {
    if (!attached.attachedTo) continue;
    const { entityField, idField } = attached.attachedTo;
    const ofEntity = sql` and ${column(ROOT, columnName(entityField))} = ${entity.name}`;
    counts.moved += await repoint(database, attached, idField, ofEntity, survivorId, mergedId, actor, tx);
  }
  // Its timeline becomes the survivor's: what was done to it is part of the survivor's story now.
  await database.rows(
    sql`update record_history set record_id = ${survivorId} where entity = ${entity.name} and record_id = ${mergedId}`,
    tx,
  );
  await database.rows(
    sql`delete from duplicate_dismissals where entity = ${entity.name} and (low_id = ${mergedId} or high_id = ${mergedId})`,
    tx,
  );
  return counts;
}

/** Each non-empty value of a row as a `[value, null]` change, as a deleted record's history entry keeps it. */
function deletedChanges(row: Record<string, unknown>): Record<string, [unknown, null]> {
  return Object.fromEntries(
    Object.entries(row)
      .filter(
        ([name, value]) =>
          !bookkeepingFields.has(name) && value !== null && !(Array.isArray(value) && value.length === 0),
      )
      .map(([name, value]) => [name, [value, null]]),
  );
}

/**
 * Merges `mergedId` into `survivorId` (see the module's comment). `entity`
 * carries its custom fields; `picks` have been checked against its fields.
 * 404 unless the actor may read both, 412 when either has another version
 * than the caller saw: nothing is written then.
 */
export async function mergeRecords(
  database: Database,
  entity: EntityDescription,
  body: MergeBody,
  actor: Actor,
  origin: { ip: string },
): Promise<MergeResult> {
  const { survivorId, mergedId } = body;
  const scope = readableScope(entity, actor);
  const table = sql.identifier(entity.table);
  return database.db.transaction(async (tx) => {
    const found = await database.rows<{ id: number | string; version: number | string; row: string }>(
      sql`select ${column(ROOT, 'id')} as id, ${column(ROOT, 'version')} as version,
          ${selectionSql(entity, { join: [] })}::text as row
        from ${table} ${sql.identifier(ROOT)}
        where ${column(ROOT, 'id')} in (${survivorId}, ${mergedId}) and ${whereSql(entity, {}, scope)}
        order by ${column(ROOT, 'id')} for update`,
      tx,
    );
    const rowOf = (id: number) => found.find((row) => Number(row.id) === id);
    const survivor = rowOf(survivorId);
    const merged = rowOf(mergedId);
    if (!survivor) throw notFound(`${entity.label} ${survivorId}`);
    if (!merged) throw notFound(`${entity.label} ${mergedId}`);
    for (const [row, seen] of [
      [survivor, body.survivorVersion],
      [merged, body.mergedVersion],
    ] as const) {
      if (Number(row.version) !== seen) {
        throw staleVersion(
          `${entity.label} ${row.id} was changed by someone else (now version ${row.version}); reload both and merge again`,
          { [row === survivor ? 'survivorVersion' : 'mergedVersion']: `Current version is ${row.version}` },
        );
      }
    }
    const survivorValues = JSON.parse(survivor.row) as Record<string, unknown>;
    const mergedValues = JSON.parse(merged.row) as Record<string, unknown>;
    const values = Object.fromEntries(
      Object.entries(body.picks)
        .filter(
          ([name, pick]) =>
            pick === 'merged' &&
            JSON.stringify(mergedValues[name] ?? null) !== JSON.stringify(survivorValues[name] ?? null),
        )
        .map(([name]) => [name, mergedValues[name] ?? null]),
    );

    // Their created entries keep their values before the merged record's timeline joins the survivor's (decision 0040).
    await keepToldChanges(database, entity, [survivorId, mergedId], tx);
    const counts = await moveReferences(database, entity, survivorId, mergedId, actor, tx);
    // The merged record goes first: a unique value (an email) can then pass to the survivor.
    const deleted = sql`delete from ${table} ${sql.identifier(ROOT)} where ${column(ROOT, 'id')} = ${mergedId}
      returning ${column(ROOT, 'id')} as id, ${selectionSql(entity, { join: [] })} as j`;
    const history = historyInsertSql(entity, sql`gone`, {
      action: 'deleted',
      changes: 'deleted',
      actorId: actor.userId,
    });
    await database.rows(
      history ? sql`with gone as (${deleted}), history as (${history}) select id from gone` : deleted,
      tx,
    );
    // On the survivor's timeline: the record merged into it, with its values.
    await database.rows(
      sql`insert into record_history (entity, record_id, action, subject_entity, subject_id, actor_id, changes)
        values (${entity.name}, ${survivorId}, 'deleted', ${entity.name}, ${mergedId}, ${actor.userId},
          ${JSON.stringify(deletedChanges(mergedValues))}::jsonb)`,
      tx,
    );
    await recordChange(
      database,
      { type: 'recordDeleted', actorId: actor.userId, ip: origin.ip, entity: entity.name, id: mergedId },
      tx,
    );
    if (Object.keys(values).length > 0) {
      await updateRecord(database, entity, survivorId, body.survivorVersion, values, actor, tx, { origin, scope });
    } else {
      // Its links changed: a client holding the old version must reload it before writing.
      await database.rows(
        sql`update ${table} set version = version + 1, updated_at = now(), updated_by_id = ${actor.userId}
          where id = ${survivorId}`,
        tx,
      );
      await recordChange(
        database,
        {
          type: 'recordUpdated',
          actorId: actor.userId,
          ip: origin.ip,
          entity: entity.name,
          id: survivorId,
          fields: [],
        },
        tx,
      );
    }
    const record = await readRecord(database, entity, survivorId, { join: [] }, scope, tx);
    return { record: JSON.parse(record.row) as Record<string, unknown>, ...counts };
  });
}
