import { rm } from 'node:fs/promises';
import path from 'node:path';
import { allFields, type EntityDescription, isWritable } from '@data-platform/shared/entities/entity';
import { entityList, findEntity } from '@data-platform/shared/entities/registry';
import { type FieldDescription, sortKeyJson } from '@data-platform/shared/fields/field-types';
import type { ListQuery } from '@data-platform/shared/query/list-query';
import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { assertMayAttachTo, assertReferencesReadable } from '../access/references.ts';
import type { Actor } from '../auth/actor.ts';
import { recordChangeInsertSql } from '../auth/audit.ts';
import type { Database, Executor } from '../db/client.ts';
import { columnName } from '../db/columns.ts';
import { invalid, notFound, staleVersion } from '../domain/errors.ts';
import { getSql, type ListScope, listSql, orderKeyCount, orderSignature, selectionSql } from './list-compiler.ts';
import { type ListTotal, pageWithTotal } from './list-count.ts';
import { column, customColumnWrite, fieldOf, pgArrayLiteral, writeColumns } from './sql-fragments.ts';

const cursorSchema = z.object({ o: z.string(), v: z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])) });

function encodeCursor(signature: string, values: unknown[]): string {
  return Buffer.from(JSON.stringify({ o: signature, v: values })).toString('base64url');
}

function decodeCursor(entity: EntityDescription, query: ListQuery): unknown[] | undefined {
  if (!query.cursor) return undefined;
  const bad = invalid({ cursor: 'This cursor is not valid for this list; start again from the first page' });
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(query.cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad;
  }
  const parsed = cursorSchema.safeParse(decoded);
  if (!parsed.success) throw bad;
  const values = parsed.data.v;
  if (parsed.data.o !== orderSignature(query) || values.length !== orderKeyCount(entity, query)) throw bad;
  // The sort keys are the last values (a search rank may come first); each must have its field's type.
  const offset = values.length - query.sort.length;
  query.sort.forEach((key, i) => {
    const value = values[offset + i];
    if (value !== null && typeof value !== sortKeyJson(fieldOf(entity, key.field).type)) throw bad;
  });
  return values;
}

export interface ListPage extends ListTotal {
  /** each row as JSON text, ready to be sent */
  rows: string[];
  nextCursor: string | null;
}

/**
 * Whether a list's statement may run prepared, its plan kept and, after five
 * runs, made generic: only lists whose rows do not depend on values the
 * caller picks (no filter, search or scope), so that one plan is right for
 * every run: the first page, cursor and offset pages of a whole table in any
 * order. A filter's or search's values can match a few rows or most of them,
 * and each run is planned for its own (docs/decisions/0021).
 */
function repeatsItsPlan(query: ListQuery, scope?: ListScope): boolean {
  return !query.where && !query.q && !scope;
}

/** One page of a list, with the total its query asks for (none unless `count`) and the cursor of the next page. */
export async function listRecords(
  database: Database,
  entity: EntityDescription,
  query: ListQuery,
  scope?: ListScope,
): Promise<ListPage> {
  const cursorValues = decodeCursor(entity, query);
  const { rows, ...total } = await pageWithTotal<{ row: string; cursor: unknown[] | string }>(
    database,
    entity,
    query,
    listSql(entity, query, cursorValues, scope),
    scope,
    { prepare: repeatsItsPlan(query, scope) },
  );
  const hasMore = rows.length > query.pageSize;
  const page = hasMore ? rows.slice(0, query.pageSize) : rows;
  const last = page.at(-1);
  const lastValues = last && (typeof last.cursor === 'string' ? JSON.parse(last.cursor) : last.cursor);
  return {
    rows: page.map((r) => r.row),
    ...total,
    nextCursor: hasMore && lastValues ? encodeCursor(orderSignature(query), lastValues) : null,
  };
}

export async function getRecord(
  database: Database,
  entity: EntityDescription,
  id: number,
  query: Pick<ListQuery, 'select' | 'join'>,
  scope?: ListScope,
  executor?: Executor,
): Promise<string> {
  // A get has few shapes per resource (its selection and scope), run on most screens: planned once per connection.
  const [found] = await database.rows<{ row: string }>(getSql(entity, id, query, scope), executor, {
    prepare: executor === undefined,
  });
  if (!found) throw notFound(`${entity.label} ${id}`);
  return found.row;
}

const allSelection = { join: [] };

/** Where a change came from, when the write stores its audit event itself (in its own statement). */
export interface ChangeOrigin {
  ip: string;
}

/**
 * Raised inside a write's statement when the row does not read back as one
 * JSON object: the statement fails, and the write and its event with it,
 * instead of answering 500 after the write was committed (a client retrying
 * would write it twice). No function is needed: reading an unknown setting
 * fails (42704), only in the branch that reaches it, with this text.
 */
const notOneObject = sql`current_setting('A written row did not read back as one JSON object')::jsonb`;

/**
 * One statement for a write and what goes with it, as data-modifying CTEs that
 * share one snapshot and one commit (atomic without BEGIN and COMMIT):
 * - `written`: the INSERT or UPDATE, `returning t.id, <row JSON> as j`;
 * - `checked`: those rows, the statement failing unless `j` is one JSON object;
 * - `audit`: the event of each checked row (none when nothing was written).
 * Answers `row` (JSON text) for each written row, then the rows of `miss`,
 * which say why nothing was written (`version`, `readable`).
 */
export function auditedWriteSql(write: SQL, audit?: (source: SQL) => SQL, miss?: SQL): SQL {
  return sql`with written as (${write}),
    checked as (select w.id, case when jsonb_typeof(w.j) = 'object' then w.j else ${notOneObject} end as j
      from written w)${
        audit
          ? sql`,
    audit as (${audit(sql`checked`)})`
          : sql``
      }
    select c.j::text as row, null::int as version, null::boolean as readable from checked c${
      miss
        ? sql`
    union all ${miss}`
        : sql``
    }`;
}

/**
 * The column assignments of a write: each field's columns, and the custom
 * fields together as one `custom` column (merged into the row's on update).
 */
function assignmentsOf(entity: EntityDescription, values: Record<string, unknown>, update: boolean): [string, SQL][] {
  const fields = allFields(entity);
  const assignments: [string, SQL][] = [];
  const custom: [string, FieldDescription, unknown][] = [];
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const field = fields[name];
    if (!field && !update) throw new Error(`${entity.name} has no field ${name}`);
    if (!field || (update && !isWritable(field))) continue;
    if (field.custom) custom.push([name, field, value]);
    else assignments.push(...writeColumns(name, field, value));
  }
  if (custom.length > 0) assignments.push(customColumnWrite(custom, update));
  return assignments;
}

/**
 * 403 before the database is asked, when a write points a reference at a
 * record type the actor may not read: the answer to `firmId: 7` (saved, or
 * "no firm 7") would tell them which firms exist. Clearing one (null) tells nothing.
 */
function assertSetReferencesReadable(actor: Actor, entity: EntityDescription, values: Record<string, unknown>) {
  const set = Object.keys(values).filter((name) => values[name] !== null && values[name] !== undefined);
  assertReferencesReadable(actor, entity, set, {
    doing: 'setting',
    field: (_name, missing) => `Needs ${missing.join(', ')}`,
  });
}

/**
 * Checks that the rows attached to records (notes, files) name records that
 * exist and the actor may read, and locks those records.
 */
async function checkAttachmentTargets(
  database: Database,
  entity: EntityDescription,
  rows: readonly Record<string, unknown>[],
  actor: Actor,
  executor: Executor,
) {
  if (!entity.attachedTo) return;
  const { entityField, idField } = entity.attachedTo;
  const idsByTarget = new Map<string, Set<number>>();
  for (const values of rows) {
    const name = String(values[entityField]);
    idsByTarget.set(name, (idsByTarget.get(name) ?? new Set()).add(values[idField] as number));
  }
  for (const [name, ids] of idsByTarget) {
    const target = findEntity(name);
    if (!target) throw invalid({ [entityField]: 'Unknown record type' });
    assertMayAttachTo(actor, target);
    const found = await database.rows<{ id: number | string }>(
      sql`select id from ${sql.identifier(target.table)}
        where id = any(${pgArrayLiteral([...ids])}::bigint[]) for key share`,
      executor,
    );
    const present = new Set(found.map((row) => Number(row.id)));
    const absent = [...ids].find((id) => !present.has(id));
    if (absent !== undefined) throw invalid({ [idField]: `No ${target.label.toLowerCase()} with id ${absent}` });
  }
}

/** The column assignments of a new row: its values, and on records who wrote it. */
function insertAssignments(
  entity: EntityDescription,
  values: Record<string, unknown>,
  actor: Pick<Actor, 'userId'>,
): [string, SQL][] {
  const assignments = assignmentsOf(entity, values, false);
  if (entity.kind !== 'reference') {
    assignments.push(['created_by_id', sql`${actor.userId}`], ['updated_by_id', sql`${actor.userId}`]);
  }
  return assignments;
}

/** `insert into <table> (...) values (...), (...)`: a column some row does not set takes its default there. */
function insertSql(entity: EntityDescription, rows: [string, SQL][][]): SQL {
  const columns = [...new Set(rows.flatMap((row) => row.map(([name]) => name)))];
  const tuples = rows.map((row) => {
    const values = new Map(row);
    return sql`(${sql.join(
      columns.map((name) => values.get(name) ?? sql`default`),
      sql`, `,
    )})`;
  });
  return sql`insert into ${sql.identifier(entity.table)} as t (${sql.join(
    columns.map((name) => sql.identifier(name)),
    sql`, `,
  )}) values ${sql.join(tuples, sql`, `)}`;
}

/**
 * The statement of `createRecord`: the insert returning the row as JSON, and
 * with `origin` its audit event, in one statement (the bench's SQL floor runs it too).
 */
export function createRecordSql(
  entity: EntityDescription,
  values: Record<string, unknown>,
  actor: Pick<Actor, 'userId'>,
  origin?: ChangeOrigin,
): SQL {
  return auditedWriteSql(
    sql`${insertSql(entity, [insertAssignments(entity, values, actor)])} returning t.id, ${selectionSql(entity, allSelection)} as j`,
    origin &&
      ((source) =>
        recordChangeInsertSql(
          { type: 'recordCreated', actorId: actor.userId, ip: origin.ip, entity: entity.name },
          source,
        )),
  );
}

/**
 * Inserts one row from values validated by `createSchema(entity)` plus
 * server-owned values, and returns it as JSON text. With `origin`, its audit
 * event is written by the same statement. One statement, one round trip,
 * atomic on its own; only rows attached to records (notes, files) first
 * check and lock their record in a transaction (`checkAttachmentTargets`).
 */
export async function createRecord(
  database: Database,
  entity: EntityDescription,
  validated: Record<string, unknown>,
  actor: Actor,
  serverValues: Record<string, unknown> = {},
  executor?: Executor,
  origin?: ChangeOrigin,
): Promise<string> {
  assertSetReferencesReadable(actor, entity, validated);
  const values = { ...validated, ...serverValues };
  const statement = createRecordSql(entity, values, actor, origin);
  const insert = async (tx?: Executor) => {
    if (tx) await checkAttachmentTargets(database, entity, [values], actor, tx);
    const [row] = await database.rows<{ row: string }>(statement, tx);
    if (!row) throw new Error(`${entity.label}: the insert returned no row`);
    return row.row;
  };
  if (executor || !entity.attachedTo) return insert(executor);
  return database.db.transaction((tx) => insert(tx));
}

/** Parameters one statement may bind: the PostgreSQL protocol counts them in 16 bits. */
const MAX_PARAMETERS = 65_535;

/**
 * Inserts many rows, each validated by `createSchema(entity)`, with as few
 * multi-row statements as the parameter limit allows, in the caller's
 * transaction: the same columns and values `createRecord` writes.
 */
export async function createRecords(
  database: Database,
  entity: EntityDescription,
  validated: readonly Record<string, unknown>[],
  actor: Actor,
  executor: Executor,
): Promise<void> {
  await checkAttachmentTargets(database, entity, validated, actor, executor);
  // A field binds at most two parameters (money: amount and currency; a custom field: its key and value), plus the writer twice.
  const perRow = 2 * Object.keys(allFields(entity)).length + 2;
  const batch = Math.max(1, Math.floor(MAX_PARAMETERS / perRow));
  for (let i = 0; i < validated.length; i += batch) {
    const rows = validated.slice(i, i + batch).map((values) => insertAssignments(entity, values, actor));
    await database.rows(insertSql(entity, rows), executor);
  }
}

/** Why an update wrote nothing, as its statement saw the row: absent (404), unreadable (404), or at another version (412). */
interface Missed {
  version: number | null;
  readable: boolean | null;
}

function missedUpdate(entity: EntityDescription, id: number, found: Missed | undefined): never {
  if (!found?.readable) throw notFound(`${entity.label} ${id}`);
  throw staleVersion(
    `${entity.label} ${id} was changed by someone else (now version ${found.version}); reload it and apply your change again`,
    { version: `Current version is ${found.version}` },
  );
}

/** Rows within `scope` (all rows without one), as a condition on `t`. */
const readableWhere = (scope?: ListScope): SQL => (scope ? sql`(${scope.where})` : sql`true`);

/**
 * The statement of `updateRecord`: the update guarded by `version` and `scope`,
 * with `origin` its audit event, then a marker row saying why nothing was
 * written (the bench's SQL floor runs it too). Undefined when nothing is set.
 */
export function updateRecordSql(
  entity: EntityDescription,
  id: number,
  version: number,
  values: Record<string, unknown>,
  actor: Pick<Actor, 'userId'>,
  { origin, scope }: { origin?: ChangeOrigin; scope?: ListScope } = {},
): SQL | undefined {
  const assignments = assignmentsOf(entity, values, true);
  if (assignments.length === 0) return undefined;
  assignments.push(
    ['version', sql`t.version + 1`],
    ['updated_at', sql`now()`],
    ['updated_by_id', sql`${actor.userId}`],
  );
  const table = sql.identifier(entity.table);
  const readable = readableWhere(scope);
  return auditedWriteSql(
    sql`update ${table} as t set ${sql.join(
      assignments.map(([c, v]) => sql`${sql.identifier(c)} = ${v}`),
      sql`, `,
    )} where t.id = ${id} and t.version = ${version} and ${readable}
      returning t.id, ${selectionSql(entity, allSelection)} as j`,
    origin &&
      ((source) =>
        recordChangeInsertSql(
          {
            type: 'recordUpdated',
            actorId: actor.userId,
            ip: origin.ip,
            entity: entity.name,
            fields: Object.keys(values),
          },
          source,
        )),
    sql`select null::text, t.version::int, ${readable} from ${table} t
      where t.id = ${id} and not exists (select 1 from written)`,
  );
}

/**
 * Updates the writable fields given (validated by `updateSchema(entity)`), only if the row still has `version`:
 * the check is in the UPDATE itself, so two writers with the same version
 * cannot both win. 412 when stale, 404 when gone or outside `scope` (what
 * the actor may read). One statement: the update, its audit event (with
 * `origin`), and a marker row saying why nothing was written.
 */
export async function updateRecord(
  database: Database,
  entity: EntityDescription,
  id: number,
  version: number,
  values: Record<string, unknown>,
  actor: Actor,
  executor?: Executor,
  { origin, scope }: { origin?: ChangeOrigin; scope?: ListScope } = {},
): Promise<string> {
  assertSetReferencesReadable(actor, entity, values);
  const statement = updateRecordSql(entity, id, version, values, actor, { origin, scope });
  if (!statement) throw invalid({ body: 'Send at least one field to change' }, 'Nothing to update');
  const [found] = await database.rows<{ row: string | null } & Missed>(statement, executor);
  if (found?.row) return found.row;
  if (found?.version !== version) missedUpdate(entity, id, found);
  // The row had this version when the statement began, yet the UPDATE, which waited for a writer
  // that committed meanwhile, found it changed or gone: only a fresh read tells which.
  const [now] = await database.rows<Missed>(
    sql`select t.version::int as version, ${readableWhere(scope)} as readable
      from ${sql.identifier(entity.table)} t where t.id = ${id}`,
    executor,
  );
  return missedUpdate(entity, id, now);
}

const attachmentEntities = entityList.filter((e) => e.attachedTo);
/** Names of the entities notes and files can belong to. */
const attachable = new Set(
  attachmentEntities.flatMap((e) => (e.attachedTo ? (e.fields[e.attachedTo.entityField]?.options ?? []) : [])),
);

/** The reference fields through which rows of other entities are deleted with a row of `parent`. */
function cascadingReferences(parent: EntityDescription): { child: EntityDescription; field: string }[] {
  return entityList.flatMap((child) =>
    Object.entries(child.fields)
      .filter(([, f]) => f.type === 'reference' && f.to === parent.name && f.onDelete === 'cascade')
      .map(([field]) => ({ child, field })),
  );
}

/**
 * The rows that go with `ids` of `entity` (themselves, and what foreign keys
 * cascade to, transitively) among entities that can carry notes and files;
 * locked so that nothing is attached to them meanwhile.
 */
async function rowsDeletedWith(
  database: Database,
  entity: EntityDescription,
  ids: number[],
  tx: Executor,
  depth = 0,
): Promise<[EntityDescription, number[]][]> {
  const found: [EntityDescription, number[]][] = attachable.has(entity.name) ? [[entity, ids]] : [];
  if (depth > 8) return found;
  for (const { child, field } of cascadingReferences(entity)) {
    const rows = await database.rows<{ id: number }>(
      sql`select id from ${sql.identifier(child.table)}
        where ${sql.identifier(columnName(field))} = any(${pgArrayLiteral(ids)}::bigint[]) for update`,
      tx,
    );
    if (rows.length > 0) {
      found.push(
        ...(await rowsDeletedWith(
          database,
          child,
          rows.map((r) => Number(r.id)),
          tx,
          depth + 1,
        )),
      );
    }
  }
  return found;
}

/**
 * Deletes a row. Rows that foreign keys cascade to (links, a fund's
 * performances) go with it; notes and files attached to any of them are
 * deleted in the same transaction, and stored bytes are removed once it commits.
 * `alongside` writes in the same transaction (the audit event), so that both or neither happen.
 */
export async function deleteRecord(
  database: Database,
  entity: EntityDescription,
  id: number,
  version: number | undefined,
  dataDir: string,
  alongside?: (tx: Executor) => Promise<void>,
): Promise<void> {
  const removedFiles: number[] = [];
  await database.db.transaction(async (tx) => {
    const versionCheck = version === undefined ? sql`true` : sql`version = ${version}`;
    const owned = await rowsDeletedWith(database, entity, [id], tx);
    const deleted = await database.rows<{ id: number }>(
      sql`delete from ${sql.identifier(entity.table)} where id = ${id} and ${versionCheck} returning id`,
      tx,
    );
    if (deleted.length === 0) {
      const [exists] = await database.rows(sql`select 1 from ${sql.identifier(entity.table)} where id = ${id}`, tx);
      if (!exists) throw notFound(`${entity.label} ${id}`);
      throw staleVersion(`${entity.label} ${id} was changed by someone else; reload it first`);
    }
    if (entity.storesBytes) removedFiles.push(id);
    for (const [owner, ids] of owned) {
      for (const attached of attachmentEntities) {
        if (!attached.attachedTo) continue;
        const { entityField, idField } = attached.attachedTo;
        const gone = await database.rows<{ id: number }>(
          sql`delete from ${sql.identifier(attached.table)} as t
            where ${column('t', columnName(entityField))} = ${owner.name}
              and ${column('t', columnName(idField))} = any(${pgArrayLiteral(ids)}::bigint[])
            returning id`,
          tx,
        );
        if (attached.storesBytes) removedFiles.push(...gone.map((g) => g.id));
      }
    }
    await alongside?.(tx);
  });
  await Promise.all(removedFiles.map((fileId) => rm(storedFilePath(dataDir, fileId), { force: true })));
}

/** Where the bytes of a stored file live: named by the row id, never by anything the client sent. */
export function storedFilePath(dataDir: string, fileId: number): string {
  return path.join(dataDir, 'files', String(fileId));
}
