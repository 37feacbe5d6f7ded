import {
  type ActivityAction,
  type ActivityItem,
  type ActivityPage,
  activityPageSchema,
  activityQuerySchema,
} from '@data-platform/shared/activity';
import { readableAttachmentTypes, readableDescription } from '@data-platform/shared/entities/access';
import { withCustomFields } from '@data-platform/shared/entities/custom-fields';
import { allFields, type EntityDescription, referenceRelationName } from '@data-platform/shared/entities/entity';
import { recordName } from '@data-platform/shared/entities/record-name';
import { attachableEntities, findEntity } from '@data-platform/shared/entities/registry';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readableEntity, readableScope } from '../access/reading.ts';
import type { Actor } from '../auth/actor.ts';
import { customFieldDefinitions } from '../crud/custom-fields.ts';
import { ROOT, whereSql } from '../crud/list-compiler.ts';
import { column, nameLiteral, rowJson } from '../crud/sql-fragments.ts';
import type { Database } from '../db/client.ts';
import { columnName } from '../db/columns.ts';
import { invalid } from '../domain/errors.ts';
import { errorBodySchema } from '../http/errors.ts';
import { readerFor } from '../http/read-after.ts';
import { importedCount } from '../io/import-audit.ts';

/**
 * Recent activity: the record changes the audit events hold (created,
 * updated, deleted, by any route; imports; notes and files added), newest
 * first, each naming who did it and the record, told only to a reader of
 * that record. The events are readable by administrators only; this answers
 * from them what the reader's own lists would show:
 * - a record type the reader may not read is not there at all;
 * - a record that exists is there only when the reader's list of its type
 *   has it (`readableScope`), named by its display field (`recordName`);
 * - a record since deleted is there, unnamed, to readers of its type whose
 *   lists have no row scope (whether its row was within one can no longer be
 *   told);
 * - a note or a file is there while it exists and the reader may read it,
 *   on a record the reader may read;
 * - an update names only the fields the reader may read.
 * One statement per page (after the custom fields' stamp), keyset-paged on
 * (created_at, id) over the events' own index.
 *
 * The record is read from the event's `details` ("companies 12: name,
 * sector"; an import "companies: 40 records"), as auth/audit.ts writes them.
 */

const changeTypes = { recordCreated: 'created', recordUpdated: 'updated', recordDeleted: 'deleted' } as const;
type ChangeType = keyof typeof changeTypes | 'recordsImported';

/** The rows of `entity` the actor may read, as a condition on the row aliased `alias` (true when every row is). */
function readableRowSql(entity: EntityDescription, actor: Actor, alias: string): SQL {
  const scope = readableScope(entity, actor);
  if (!scope) return sql`true`;
  return sql`${column(alias, 'id')} in (select ${column(ROOT, 'id')} from ${sql.identifier(entity.table)} ${sql.identifier(ROOT)}
    where ${whereSql(entity, {}, scope)})`;
}

/** A `case <subject> when '<entity>' then ... end` over the given entities; null when none. */
function caseOf(subject: SQL, entities: readonly EntityDescription[], branch: (entity: EntityDescription) => SQL): SQL {
  if (entities.length === 0) return sql`null`;
  return sql`case ${subject} ${sql.join(
    entities.map((entity) => sql`when ${nameLiteral(entity.name)} then ${branch(entity)}`),
    sql` `,
  )} end`;
}

/** The JSON that names a record of `entity` (its display field, within its parent's when it has one), read only when the actor may read it. */
function namingJson(entity: EntityDescription, actor: Actor, id: SQL): SQL {
  const extra: [string, SQL][] = [];
  const within = entity.displayWithin;
  const parent = within ? findEntity(entity.fields[within]?.to ?? '') : undefined;
  if (within && parent && readableEntity(actor, parent.name)) {
    extra.push([
      referenceRelationName(within),
      sql`(select ${rowJson(parent, 'p', ['id', parent.display])} from ${sql.identifier(parent.table)} p
        where p.id = ${column('r', columnName(within))} and ${readableRowSql(parent, actor, 'p')})`,
    ]);
  }
  return sql`(select ${rowJson(entity, 'r', ['id', entity.display], extra)}::text from ${sql.identifier(entity.table)} r
    where r.id = ${id} and ${readableRowSql(entity, actor, 'r')})`;
}

const literals = (names: readonly string[]) =>
  names.length === 0 ? sql`null` : sql.join(names.map(nameLiteral), sql`, `);

interface ActivityRow {
  id: number | string;
  created_at: string;
  cursor: string;
  type: ChangeType;
  details: string;
  entity: string;
  subject: string;
  subject_id: number | string | null;
  actor: string | null;
  record: string | null;
  present: boolean | null;
  file_name: string | null;
}

const cursorSchema = z.tuple([z.string().regex(/^-?\d{1,20}$/), z.number().int().positive()]);

function encodeCursor(row: ActivityRow): string {
  return Buffer.from(JSON.stringify([row.cursor, Number(row.id)])).toString('base64url');
}

function decodeCursor(text: string): [string, number] {
  try {
    return cursorSchema.parse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
  } catch {
    throw invalid({ before: 'This cursor is not one this list gave; start again from the newest lines' });
  }
}

/**
 * One page of the activity the actor may see, older than `before` when given:
 * read from `reader` (a read replica once it holds the caller's own writes,
 * `readerFor`), the custom field definitions from `database`.
 */
export async function recentActivity(
  database: Database,
  actor: Actor,
  { before, limit }: { before?: string; limit: number },
  reader: Database = database,
): Promise<ActivityPage> {
  const cursor = before === undefined ? undefined : decodeCursor(before);
  const definitions = await customFieldDefinitions(database);
  // The record types whose records the actor may read, named by a field the actor may read.
  const records = attachableEntities.flatMap((name) => {
    const entity = readableEntity(actor, name);
    return entity && allFields(readableDescription(entity, actor.permissions))[entity.display] ? [entity] : [];
  });
  if (records.length === 0) return { data: [], nextCursor: null };
  const recordNames = records.map((entity) => entity.name);
  const unscoped = records.filter((entity) => !readableScope(entity, actor)).map((entity) => entity.name);
  // Notes and files the actor may read, on records of those types.
  const attachments = ['notes', 'files'].flatMap((name) => {
    const entity = readableEntity(actor, name);
    const on = entity ? readableAttachmentTypes(entity, actor.permissions).filter((t) => recordNames.includes(t)) : [];
    return entity?.attachedTo && on.length > 0 ? [{ entity, on }] : [];
  });
  const users = findEntity('users');
  const userReadable =
    users && readableEntity(actor, 'users') ? allFields(readableDescription(users, actor.permissions)) : {};
  const actorJson =
    users && userReadable.fullName
      ? sql`(select ${rowJson(users, 'u', ['id', 'fullName'])}::text from ${sql.identifier(users.table)} u
          where u.id = e.actor_id and ${readableRowSql(users, actor, 'u')})`
      : sql`null::text`;
  const attached =
    attachments.length === 0
      ? sql`select null::text as entity, null::bigint as id, null::text as file_name where false`
      : sql.join(
          attachments.map(({ entity, on }) => {
            const { entityField, idField } = entity.attachedTo ?? { entityField: '', idField: '' };
            const fileName = entity.storesBytes ? column('a', columnName(entity.display)) : sql`null::text`;
            return sql`select ${column('a', columnName(entityField))}::text as entity, ${column('a', columnName(idField))}::bigint as id,
                ${fileName}::text as file_name
              from ${sql.identifier(entity.table)} a
              where x.entity = ${nameLiteral(entity.name)} and e.type = 'recordCreated' and a.id = x.id
                and ${column('a', columnName(entityField))} in (${literals(on)}) and ${readableRowSql(entity, actor, 'a')}`;
          }),
          sql` union all `,
        );
  const keyset = cursor
    ? sql`and (e.created_at, e.id) < ('epoch'::timestamptz + ${cursor[0]}::bigint * interval '1 microsecond', ${cursor[1]}::bigint)`
    : sql``;
  const rows = await reader.rows<ActivityRow>(
    sql`select e.id, to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
        ((extract(epoch from e.created_at) * 1000000)::bigint)::text as cursor,
        e.type, e.details, x.entity, s.entity as subject, s.id as subject_id, ${actorJson} as actor,
        n.record, n.present, s.file_name
      from audit_events e
      cross join lateral (select split_part(e.details, ':', 1) as head) h
      cross join lateral (select split_part(h.head, ' ', 1) as entity,
        case when split_part(h.head, ' ', 2) ~ '^[0-9]{1,18}$' then split_part(h.head, ' ', 2)::bigint end as id) x
      left join lateral (${attached}) a on true
      cross join lateral (select coalesce(a.entity, x.entity) as entity, coalesce(a.id, x.id) as id, a.file_name) s
      cross join lateral (select ${caseOf(sql`s.entity`, records, (entity) => namingJson(entity, actor, sql`s.id`))} as record,
        ${caseOf(
          sql`s.entity`,
          records,
          (entity) => sql`exists (select 1 from ${sql.identifier(entity.table)} g where g.id = s.id)`,
        )} as present) n
      where e.type in ('recordCreated', 'recordUpdated', 'recordDeleted', 'recordsImported') ${keyset}
        and s.entity in (${literals(recordNames)})
        and case
          when e.type = 'recordsImported' then x.id is null and x.entity in (${literals(recordNames)})
          when a.entity is not null then n.record is not null
          when x.entity in (${literals(recordNames)}) and x.id is not null
            then n.record is not null or (not n.present and x.entity in (${literals(unscoped)}))
          else false
        end
      order by e.created_at desc, e.id desc
      limit ${limit + 1}`,
  );
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  const readableFields = new Map(
    records.map((entity) => [
      entity.name,
      allFields(readableDescription(withCustomFields(entity, definitions), actor.permissions)),
    ]),
  );
  const data = page.map((row): ActivityItem => {
    const entity = findEntity(row.subject) as EntityDescription;
    const record = row.record === null ? null : (JSON.parse(row.record) as Record<string, unknown>);
    const actorRow = row.actor === null ? null : (JSON.parse(row.actor) as { id: number; fullName: string });
    const action: ActivityAction =
      row.type === 'recordsImported'
        ? 'imported'
        : row.subject !== row.entity
          ? row.entity === 'files'
            ? 'fileUploaded'
            : 'noteAdded'
          : changeTypes[row.type];
    const sent = row.type === 'recordUpdated' ? (row.details.split(': ')[1]?.split(', ') ?? []) : [];
    const readable = readableFields.get(row.subject) ?? {};
    return {
      id: Number(row.id),
      createdAt: row.created_at,
      action,
      actor: actorRow && { id: Number(actorRow.id), fullName: String(actorRow.fullName) },
      entity: row.subject,
      recordId: row.subject_id === null ? null : Number(row.subject_id),
      recordName: record ? recordName(entity, record) : null,
      recordExists: record !== null,
      fields: sent.filter((name) => Object.hasOwn(readable, name)),
      count: row.type === 'recordsImported' ? importedCount(row.details) : null,
      fileName: action === 'fileUploaded' ? row.file_name : null,
    };
  });
  const last = page.at(-1);
  return { data, nextCursor: hasMore && last ? encodeCursor(last) : null };
}

export function registerActivityRoutes(app: FastifyInstance, database: Database): void {
  app.withTypeProvider<ZodTypeProvider>().get('/api/v1/activity', {
    schema: {
      tags: ['Dashboard'],
      summary: 'Recent activity on the records the signed-in user may read',
      description: `Records created, updated and deleted (from the screens, the API, a bulk edit), imports, and notes and
files added, newest first: who did what to which record, when. Only records the user's lists show are there, named by
their display field; a deleted record is there unnamed, only to readers of its type; an update names only the fields
the user may read. Pages by keyset: pass \`nextCursor\` as \`before\` for older lines.`,
      querystring: activityQuerySchema,
      response: { 200: activityPageSchema, 400: errorBodySchema, 401: errorBodySchema },
    },
    handler: async (request) =>
      recentActivity(database, request.actor, request.query, await readerFor(database, request)),
  });
}
