import { rm } from 'node:fs/promises';
import { mayAct, readableAttachmentTypes } from '@data-platform/shared/entities/access';
import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import { recordName } from '@data-platform/shared/entities/record-name';
import { updateSchema } from '@data-platform/shared/entities/record-schema';
import { attachableEntities, entityList, findEntity } from '@data-platform/shared/entities/registry';
import type { FieldDescription } from '@data-platform/shared/fields/field-types';
import {
  DEFAULT_RETENTION_DAYS,
  type HistoryChange,
  type HistoryEntry,
  type HistoryPage,
  type HistorySettings,
  historyPageSchema,
  historyQuerySchema,
  historySettingsSchema,
  restoredRecordSchema,
  restoreFieldSchema,
} from '@data-platform/shared/history';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readableEntity, readableScope, readerDescription } from '../access/reading.ts';
import type { Actor } from '../auth/actor.ts';
import { recordChange } from '../auth/audit.ts';
import { currentDescription } from '../crud/custom-fields.ts';
import { toldChanges, toldChangesOf } from '../crud/history-told.ts';
import { historyInsertSql, storedColumns } from '../crud/history-writes.ts';
import { ROOT, selectionSql, whereSql } from '../crud/list-compiler.ts';
import {
  type DeletedSnapshot,
  readRecord,
  restoreEmptiedReference,
  storedFilePath,
  updateRecord,
} from '../crud/records.ts';
import { column, pgArrayLiteral, rowJson } from '../crud/sql-fragments.ts';
import { type Database, type Executor, jsonValue } from '../db/client.ts';
import { conflict, invalid, notFound } from '../domain/errors.ts';
import { errorBodySchema } from '../http/errors.ts';
import { idParamsSchema, versionFromIfMatch } from '../http/record-params.ts';
import { sendRecord } from '../http/record-replies.ts';

/**
 * A record's history (docs/decisions/0028): what crud/records.ts writes to
 * record_history with every create, update and delete, read back newest
 * first with the record's own rights; a field set back to an earlier value;
 * a deleted record brought back with what was deleted with it, within the
 * retention period the administrator sets.
 */

/** The rows of `entity` the actor may read, as a condition on the row aliased `alias` (true when every row is). */
export function readableRowSql(entity: EntityDescription, actor: Actor, alias: string): SQL {
  const scope = readableScope(entity, actor);
  if (!scope) return sql`true`;
  return sql`${column(alias, 'id')} in (select ${column(ROOT, 'id')} from ${sql.identifier(entity.table)} ${sql.identifier(ROOT)}
    where ${whereSql(entity, {}, scope)})`;
}

/** The retention period in days: the administrator's setting, or the default until one is set. */
const retentionDaysSql = sql`coalesce((select retention_days from history_settings where id = 1), ${DEFAULT_RETENTION_DAYS})`;
/** Entries whose snapshot is still within the retention period. */
const withinRetention = sql`h.created_at > now() - make_interval(days => ${retentionDaysSql})`;

export async function historySettings(database: Database): Promise<HistorySettings> {
  const [row] = await database.rows<{ days: number }>(sql`select ${retentionDaysSql}::int as days`);
  return { retentionDays: Number(row?.days ?? DEFAULT_RETENTION_DAYS) };
}

/**
 * Empties the snapshots of deletions older than the retention period and
 * removes the bytes of their files (a few hundred entries a run; each delete
 * and each change of the setting runs it, and the server at start).
 */
export async function pruneHistory(database: Database, dataDir: string): Promise<number> {
  const pruned = await database.rows<{ files: number[] | string | null }>(
    sql`with old as (select h.id, h.snapshot->'files' as files from record_history h
        where h.snapshot is not null and not ${withinRetention} order by h.created_at limit 500 for update skip locked),
      cleared as (update record_history h set snapshot = null from old where h.id = old.id)
      select old.files from old`,
  );
  const ids = pruned.flatMap((row) => jsonValue(row.files ?? []));
  if (ids.length > 0) {
    // A file restored since has its row again: its bytes stay.
    const present = await database.rows<{ id: number | string }>(
      sql`select id from files where id = any(${pgArrayLiteral(ids)}::bigint[])`,
    );
    const kept = new Set(present.map((row) => Number(row.id)));
    await Promise.all(
      ids.filter((id) => !kept.has(Number(id))).map((id) => rm(storedFilePath(dataDir, Number(id)), { force: true })),
    );
  }
  return pruned.length;
}

interface HistoryRow {
  id: number | string;
  created_at: string;
  cursor: string;
  action: HistoryEntry['action'];
  subject_entity: string | null;
  subject_id: number | string | null;
  changes: Record<string, [unknown, unknown]> | string;
  changes_elided: boolean;
  actor: string | null;
  restorable: boolean;
}

const cursorSchema = z.tuple([z.string().regex(/^-?\d{1,20}$/), z.number().int().positive()]);

function decodeCursor(text: string): [string, number] {
  try {
    return cursorSchema.parse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
  } catch {
    throw invalid({ cursor: 'This cursor is not one this history gave; start again from the newest entries' });
  }
}

/**
 * The fields of `entity` whose values the actor may see in an entry: those
 * its reads answer (custom fields included), less references to record types
 * the actor may not read (which record it was tells what the actor may not know).
 */
async function visibleFields(
  database: Database,
  entity: EntityDescription,
  actor: Actor,
): Promise<Record<string, FieldDescription>> {
  const fields = allFields(await readerDescription(database, entity, actor));
  return Object.fromEntries(
    Object.entries(fields).filter(
      ([, field]) => field.type !== 'reference' || !field.to || readableEntity(actor, field.to) !== undefined,
    ),
  );
}

/** The link types, notes and files whose entries the actor may see on a record of `entity`. */
function readableSubjects(entity: EntityDescription, actor: Actor): EntityDescription[] {
  return entityList.filter((subject) => {
    if (!readableEntity(actor, subject.name)) return false;
    // A record merged into this one (decision 0032): its entry names it.
    if (subject.name === entity.name) return entity.duplicates === true;
    if (subject.attachedTo) return readableAttachmentTypes(subject, actor.permissions).includes(entity.name);
    return (
      subject.kind === 'link' &&
      Object.values(subject.fields).some((f) => f.type === 'reference' && f.to === entity.name)
    );
  });
}

/**
 * Whether the actor may read the record's history: the record is there and
 * within the actor's row scope, or it was deleted and the actor's list of
 * its type has no row scope (whether its row was within one can no longer be told).
 */
async function assertHistoryReadable(database: Database, entity: EntityDescription, id: number, actor: Actor) {
  const [found] = await database.rows<{ present: boolean; readable: boolean; kept: boolean }>(
    sql`select exists (select 1 from ${sql.identifier(entity.table)} r where r.id = ${id}) as present,
      exists (select 1 from ${sql.identifier(entity.table)} r where r.id = ${id} and ${readableRowSql(entity, actor, 'r')}) as readable,
      exists (select 1 from record_history h where h.entity = ${entity.name} and h.record_id = ${id}) as kept`,
  );
  const deletedAndOpen = !found?.present && found?.kept && !readableScope(entity, actor);
  if (!found?.readable && !deletedAndOpen) throw notFound(`${entity.label} ${id}`);
}

/** Names of the records at links' other ends, by type and id, as the actor may read them. */
async function linkedNames(
  database: Database,
  actor: Actor,
  wanted: Map<string, Set<number>>,
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const [name, ids] of wanted) {
    const entity = readableEntity(actor, name);
    if (!entity || ids.size === 0) continue;
    const rows = await database.rows<{ r: string }>(
      sql`select ${rowJson(entity, 'r', ['id', entity.display])}::text as r from ${sql.identifier(entity.table)} r
        where r.id = any(${pgArrayLiteral([...ids])}::bigint[]) and ${readableRowSql(entity, actor, 'r')}`,
    );
    for (const row of rows) {
      const values = JSON.parse(row.r) as Record<string, unknown>;
      names.set(`${name}:${values.id}`, recordName(entity, values));
    }
  }
  return names;
}

/** The other end of a link row, from its values in an entry. */
function otherEnd(
  link: EntityDescription,
  entity: EntityDescription,
  id: number,
  changes: Record<string, [unknown, unknown]>,
): { entity: string; id: number } | null {
  const ends = Object.entries(link.fields).filter(([, f]) => f.type === 'reference' && f.to);
  for (const [name, field] of ends) {
    const value = Number(changes[name]?.[1] ?? changes[name]?.[0]);
    if (!Number.isFinite(value)) continue;
    if (field.to === entity.name && value === id) continue;
    return { entity: field.to as string, id: value };
  }
  return null;
}

/** A record merged into this one (since deleted), named by its values as the entry keeps them, when readable. */
function mergedRecord(
  entity: EntityDescription,
  id: number,
  changes: Record<string, [unknown, unknown]>,
  readable: Record<string, FieldDescription>,
): { entity: string; id: number; name: string | null } {
  const display = changes[entity.display]?.[0];
  const named = Object.hasOwn(readable, entity.display) && display !== null && display !== undefined;
  return { entity: entity.name, id, name: named ? recordName(entity, { id, [entity.display]: display }) : null };
}

/** One page of a record's history, newest first, as the actor may read it. */
export async function recordHistoryPage(
  database: Database,
  entity: EntityDescription,
  id: number,
  actor: Actor,
  { cursor, limit }: { cursor?: string; limit: number },
): Promise<HistoryPage> {
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  await assertHistoryReadable(database, entity, id, actor);
  const subjects = readableSubjects(entity, actor);
  const subjectNames = subjects.map((subject) => subject.name);
  const users = findEntity('users');
  const actorJson =
    users && readableEntity(actor, 'users')
      ? sql`(select ${rowJson(users, 'u', ['id', 'fullName'])}::text from ${sql.identifier(users.table)} u
          where u.id = h.actor_id and ${readableRowSql(users, actor, 'u')})`
      : sql`null::text`;
  const keyset = after
    ? sql`and (h.created_at, h.id) < ('epoch'::timestamptz + ${after[0]}::bigint * interval '1 microsecond', ${after[1]}::bigint)`
    : sql``;
  const rows = await database.rows<HistoryRow>(
    sql`select h.id, to_char(h.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
        ((extract(epoch from h.created_at) * 1000000)::bigint)::text as cursor,
        h.action, h.subject_entity, h.subject_id, h.changes, h.changes_elided, ${actorJson} as actor,
        (h.snapshot is not null and ${withinRetention}) as restorable
      from record_history h
      where h.entity = ${entity.name} and h.record_id = ${id} ${keyset}
        and (h.subject_entity is null${
          subjectNames.length > 0 ? sql` or h.subject_entity = any(${pgArrayLiteral(subjectNames)}::text[])` : sql``
        })
      order by h.created_at desc, h.id desc
      limit ${limit + 1}`,
  );
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  const fieldsOf = new Map<string, Record<string, FieldDescription>>();
  for (const described of [entity, ...subjects]) {
    fieldsOf.set(described.name, await visibleFields(database, described, actor));
  }
  const told = await toldChangesOf(
    database,
    page
      .filter((row) => row.changes_elided)
      .map((row) => ({
        id: Number(row.id),
        entity: entity.name,
        recordId: id,
        subjectEntity: row.subject_entity,
        subjectId: row.subject_id === null ? null : Number(row.subject_id),
      })),
  );
  const parsed = page.map((row) => ({
    row,
    changes: row.changes_elided
      ? (told.get(Number(row.id)) ?? {})
      : (jsonValue(row.changes) as Record<string, [unknown, unknown]>),
  }));
  const wanted = new Map<string, Set<number>>();
  const ends = parsed.map(({ row, changes }) => {
    const link = row.subject_entity ? findEntity(row.subject_entity) : undefined;
    const end = link?.kind === 'link' ? otherEnd(link, entity, id, changes) : null;
    if (end) wanted.set(end.entity, (wanted.get(end.entity) ?? new Set()).add(end.id));
    return end;
  });
  const names = await linkedNames(database, actor, wanted);
  const data = parsed.map(({ row, changes }, i): HistoryEntry => {
    const readable = fieldsOf.get(row.subject_entity ?? entity.name) ?? {};
    const actorRow = row.actor === null ? null : (JSON.parse(row.actor) as { id: number; fullName: string });
    const end = ends[i];
    const list: HistoryChange[] = Object.entries(changes)
      .filter(([field]) => Object.hasOwn(readable, field))
      .map(([field, [before, now]]) => ({ field, old: before, new: now }));
    return {
      id: Number(row.id),
      createdAt: row.created_at,
      action: row.action,
      actor: actorRow && { id: Number(actorRow.id), fullName: String(actorRow.fullName) },
      subject: row.subject_entity === null ? null : { entity: row.subject_entity, id: Number(row.subject_id) },
      linked: end
        ? { ...end, name: names.get(`${end.entity}:${end.id}`) ?? null }
        : row.subject_entity === entity.name
          ? mergedRecord(entity, Number(row.subject_id), changes, readable)
          : null,
      changes: list,
      restorable: Boolean(row.restorable) && mayAct(entity, 'create', actor.permissions),
    };
  });
  const last = page.at(-1);
  return {
    data,
    nextCursor:
      hasMore && last ? Buffer.from(JSON.stringify([last.cursor, Number(last.id)])).toString('base64url') : null,
  };
}

/** Writes one snapshot row back as it was stored (its id included), into its table's stored columns. */
function insertSnapshotRow(database: Database, entity: EntityDescription, row: Record<string, unknown>, tx: Executor) {
  const columns = sql.join(
    storedColumns(entity).map((name) => sql.identifier(name)),
    sql`, `,
  );
  return database.rows(
    sql`insert into ${sql.identifier(entity.table)} (${columns})
      select ${columns} from jsonb_populate_record(null::${sql.identifier(entity.table)}, ${JSON.stringify(row)}::jsonb)`,
    tx,
  );
}

/** How many references a restore put back, and how many it left as they were. */
interface RestoredReferences {
  restoredReferences: number;
  skippedReferences: number;
}

/**
 * Puts back the references the deletion emptied (`snapshot.emptied`; none in
 * snapshots written before session 13) to the rows that came back. As with
 * the rows deleted with the record, the restore writes only what the actor
 * could write through the API: references on record types the actor may not
 * update, or on rows outside the actor's row scope of that type, stay empty
 * and are counted as skipped, like a row of a type the actor may not create.
 * So are references set to another record since, and rows deleted since.
 */
async function restoreEmptiedReferences(
  database: Database,
  snapshot: DeletedSnapshot,
  actor: Actor,
  tx: Executor,
): Promise<RestoredReferences> {
  const counts: RestoredReferences = { restoredReferences: 0, skippedReferences: 0 };
  for (const reference of snapshot.emptied ?? []) {
    const referring = findEntity(reference.entity);
    const field = referring?.fields[reference.field];
    if (!referring || field?.type !== 'reference' || !mayAct(referring, 'update', actor.permissions)) {
      counts.skippedReferences += reference.ids.length;
      continue;
    }
    const described = await currentDescription(database, referring);
    const within = readableRowSql(referring, actor, 't');
    const put = await restoreEmptiedReference(database, described, reference, actor.userId, within, tx);
    counts.restoredReferences += put;
    counts.skippedReferences += reference.ids.length - put;
  }
  return counts;
}

/**
 * Brings a deleted record back from its latest deletion's snapshot, within the
 * retention period: its row as it was (same id), then the rows deleted with it
 * (links, notes, files, rows that cascaded), then the references the deletion
 * emptied (`restoreEmptiedReferences`). A row that cannot come back (a link to
 * a record deleted since, a type the actor may not create) is left out and
 * counted, and so is a reference that cannot. One transaction, written in
 * history as `restored`.
 */
export async function restoreDeletedRecord(
  database: Database,
  entity: EntityDescription,
  id: number,
  actor: Actor,
  ip: string,
): Promise<{ row: string; restoredRows: number; skippedRows: number } & RestoredReferences> {
  return database.db.transaction(async (tx) => {
    const [entry] = await database.rows<{ id: number | string; snapshot: DeletedSnapshot | string }>(
      sql`select h.id, h.snapshot from record_history h
        where h.entity = ${entity.name} and h.record_id = ${id} and h.action = 'deleted' and h.subject_entity is null
          and h.snapshot is not null and ${withinRetention}
        order by h.created_at desc, h.id desc limit 1 for update`,
      tx,
    );
    const [present] = await database.rows(sql`select 1 from ${sql.identifier(entity.table)} where id = ${id}`, tx);
    if (present) throw conflict(`${entity.label} ${id} exists; there is nothing to restore`);
    if (!entry) throw notFound(`A deleted ${entity.label.toLowerCase()} ${id} within the retention period`);
    const snapshot = jsonValue(entry.snapshot) as DeletedSnapshot;
    const [own, ...others] = snapshot.rows;
    if (!own || own.entity !== entity.name) throw notFound(`The snapshot of ${entity.label.toLowerCase()} ${id}`);
    await insertSnapshotRow(database, entity, own.row, tx);
    let restoredRows = 0;
    let skippedRows = 0;
    // Rows with timelines of their own beside the record's: links (their other ends), records that cascaded away.
    const restoredWith = new Map<EntityDescription, number[]>();
    for (const { entity: name, row } of others) {
      const rowEntity = findEntity(name);
      if (!rowEntity || !mayAct(rowEntity, 'create', actor.permissions)) {
        skippedRows += 1;
        continue;
      }
      try {
        // A savepoint each: one row that cannot come back (its other end deleted since) leaves the others.
        await tx.transaction((inner) => insertSnapshotRow(database, rowEntity, row, inner));
        restoredRows += 1;
        if (rowEntity.kind === 'link' || rowEntity.attachable) {
          restoredWith.set(rowEntity, [...(restoredWith.get(rowEntity) ?? []), Number(row.id)]);
        }
      } catch {
        skippedRows += 1;
      }
    }
    const described = await currentDescription(database, entity);
    const ownEntry = historyInsertSql(described, sql`c0`, {
      action: 'restored',
      changes: 'created',
      actorId: actor.userId,
    });
    if (ownEntry) {
      await database.rows(
        sql`with c0 as (select t.id, ${selectionSql(described, { join: [] })} as j from ${sql.identifier(entity.table)} t
          where t.id = ${id}) ${ownEntry}`,
        tx,
      );
    }
    // The records at the restored links' other ends see the links come back; a record that cascaded away, itself.
    for (const [restored, ids] of restoredWith) {
      const withCustom = await currentDescription(database, restored);
      const insert = historyInsertSql(withCustom, sql`c0`, {
        action: 'restored',
        changes: 'created',
        actorId: actor.userId,
        except: { entity: entity.name, id },
      });
      if (!insert) continue;
      await database.rows(
        sql`with c0 as (select t.id, ${selectionSql(withCustom, { join: [] })} as j from ${sql.identifier(withCustom.table)} t
          where t.id = any(${pgArrayLiteral(ids)}::bigint[])) ${insert}`,
        tx,
      );
    }
    const references = await restoreEmptiedReferences(database, snapshot, actor, tx);
    // Restored once: the snapshot is spent (a new deletion keeps a new one).
    await database.rows(sql`update record_history set snapshot = null where id = ${Number(entry.id)}`, tx);
    await recordChange(database, { type: 'recordCreated', actorId: actor.userId, ip, entity: entity.name, id }, tx);
    const { row } = await readRecord(database, described, id, { join: [] }, undefined, tx);
    return { row, restoredRows, skippedRows, ...references };
  });
}

/**
 * Sets one field back to the value it had before entry `entryId` changed it,
 * with the record's version check (`If-Match`, 412 when stale), written in
 * history as `restored`.
 */
async function restoreField(
  database: Database,
  entity: EntityDescription,
  id: number,
  entryId: number,
  field: string,
  version: number,
  actor: Actor,
  ip: string,
): Promise<string> {
  const described = await currentDescription(database, entity);
  const readable = await visibleFields(database, entity, actor);
  const [entry] = await database.rows<{
    changes: Record<string, [unknown, unknown]> | string;
    changes_elided: boolean;
  }>(
    sql`select h.changes, h.changes_elided from record_history h
      where h.id = ${entryId} and h.entity = ${entity.name} and h.record_id = ${id} and h.subject_entity is null`,
  );
  if (!entry) throw notFound(`History entry ${entryId} of ${entity.label.toLowerCase()} ${id}`);
  const changes = entry.changes_elided
    ? await toldChanges(database, {
        id: entryId,
        entity: entity.name,
        recordId: id,
        subjectEntity: null,
        subjectId: null,
      })
    : (jsonValue(entry.changes) as Record<string, [unknown, unknown]>);
  if (!Object.hasOwn(changes, field) || !Object.hasOwn(readable, field)) {
    throw invalid({ field: 'This entry did not change that field' });
  }
  const parsed = updateSchema(described).safeParse({ [field]: changes[field]?.[0] ?? null });
  if (!parsed.success) {
    throw invalid({ [field]: parsed.error.issues[0]?.message ?? 'Not valid' }, 'The earlier value is not valid today');
  }
  return updateRecord(database, described, id, version, parsed.data as Record<string, unknown>, actor, undefined, {
    origin: { ip },
    scope: readableScope(entity, actor),
    action: 'restored',
  });
}

const errorResponses = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** Mounts each record type's history routes (under its path alias too), the settings routes, and prunes at start. */
export function registerHistoryRoutes(app: FastifyInstance, database: Database, dataDir: string): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  for (const name of attachableEntities) {
    const entity = findEntity(name) as EntityDescription;
    const tags = [entity.labelPlural];
    const one = entity.label.toLowerCase();
    for (const segment of [entity.name, ...(entity.pathAlias ? [entity.pathAlias] : [])]) {
      const base = `/api/v1/${segment}/:id`;
      api.get(`${base}/history`, {
        config: { access: { resource: entity.name, action: 'read' } },
        schema: {
          tags,
          summary: `The history of a ${one}`,
          description: `Every create, update and delete of the ${one}, its notes, files and links, newest first: who,
when, and each field's old and new value (custom fields included), only the fields the caller may read. Rights follow
the record's: 404 unless the caller may read it (a deleted one: only callers whose list of its type has no row scope).
Pages by keyset: pass \`nextCursor\` as \`cursor\` for older entries.`,
          params: idParamsSchema,
          querystring: historyQuerySchema,
          response: { 200: historyPageSchema, ...errorResponses },
        },
        handler: async (request) =>
          recordHistoryPage(database, entity, request.params.id, request.actor, request.query),
      });
      api.post(`${base}/history/:entryId/restore`, {
        config: { access: { resource: entity.name, action: 'update' } },
        schema: {
          tags,
          summary: `Set a field of a ${one} back to its value before a history entry`,
          description:
            'Send `If-Match: <version>` of the record. A stale version answers 412, a missing one 428; the change is a `restored` entry in the history.',
          params: idParamsSchema.extend({ entryId: idParamsSchema.shape.id }),
          headers: z.looseObject({ 'if-match': z.string().optional() }),
          body: restoreFieldSchema,
          response: {
            200: z.record(z.string(), z.unknown()),
            ...errorResponses,
            412: errorBodySchema,
            428: errorBodySchema,
          },
        },
        handler: async (request, reply) => {
          const version = versionFromIfMatch(request.headers['if-match'], true) as number;
          const row = await restoreField(
            database,
            entity,
            request.params.id,
            request.params.entryId,
            request.body.field,
            version,
            request.actor,
            request.ip,
          );
          return sendRecord(reply, row);
        },
      });
      api.post(`${base}/restore`, {
        config: { access: [{ resource: entity.name, action: 'create' }] },
        schema: {
          tags,
          summary: `Restore a deleted ${one}`,
          description: `Brings the ${one} back as it was when deleted (same id), with its links, notes and files, within
the retention period (\`GET /api/v1/history/settings\`). Links to records deleted since, and rows of types the caller may
not create, stay out (\`skippedRows\`). References the deletion emptied (a deal's fund, a contact's firm) are set back
to the record, or to a record that came back with it, where the referring row still exists and the reference is still
empty (\`restoredReferences\`, each a \`restored\` entry on that row's history); the others, and those on types or rows
the caller may not update, stay as they are (\`skippedReferences\`). Needs the right to create
${entity.labelPlural.toLowerCase()} and to read them without a row scope; 404 when there is no deletion to undo, 409 when
the record exists.`,
          params: idParamsSchema,
          response: { 200: restoredRecordSchema, ...errorResponses, 409: errorBodySchema },
        },
        handler: async (request) => {
          if (readableScope(entity, request.actor)) throw notFound(`A deleted ${one} ${request.params.id}`);
          const restored = await restoreDeletedRecord(database, entity, request.params.id, request.actor, request.ip);
          return { ...restored, record: JSON.parse(restored.row) as Record<string, unknown> };
        },
      });
    }
  }

  api.get('/api/v1/history/settings', {
    config: { permission: 'users:manage' },
    schema: {
      tags: ['History'],
      summary: 'Record history settings',
      description: 'How many days a deleted record can be restored (its snapshot and its files are kept that long).',
      response: { 200: historySettingsSchema, 401: errorBodySchema, 403: errorBodySchema },
    },
    handler: async () => historySettings(database),
  });
  api.patch('/api/v1/history/settings', {
    config: { permission: 'users:manage' },
    schema: {
      tags: ['History'],
      summary: 'Change the record history settings',
      description: 'Snapshots of deletions older than the new period are pruned at once, with their files.',
      body: historySettingsSchema,
      response: { 200: historySettingsSchema, ...errorResponses },
    },
    handler: async (request) => {
      await database.rows(
        sql`insert into history_settings (id, retention_days, updated_at, updated_by_id)
          values (1, ${request.body.retentionDays}, now(), ${request.actor.userId})
          on conflict (id) do update set retention_days = excluded.retention_days, updated_at = now(),
            updated_by_id = excluded.updated_by_id`,
      );
      await pruneHistory(database, dataDir);
      return historySettings(database);
    },
  });
  app.addHook('onReady', async () => {
    await pruneHistory(database, dataDir);
  });
}
