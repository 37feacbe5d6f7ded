import { rm } from 'node:fs/promises';
import path from 'node:path';
import { allFields, type EntityDescription, isWritable } from '@data-platform/shared/entities/entity';
import { entityList, findEntity } from '@data-platform/shared/entities/registry';
import { type FieldDescription, sortKeyJson } from '@data-platform/shared/fields/field-types';
import type { HistoryAction } from '@data-platform/shared/history';
import type { ListQuery } from '@data-platform/shared/query/list-query';
import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { assertMayAttachTo, assertReferencesReadable } from '../access/references.ts';
import type { Actor } from '../auth/actor.ts';
import { recordChangeInsertSql } from '../auth/audit.ts';
import { type Database, type Executor, jsonValue } from '../db/client.ts';
import { columnName } from '../db/columns.ts';
import { invalid, notFound, staleVersion } from '../domain/errors.ts';
import { type BoundText, CompiledTexts } from './compiled-texts.ts';
import { currentDescription } from './custom-fields.ts';
import { historyEraseSql, historyInsertSql } from './history-writes.ts';
import {
  type FilterParts,
  filterParts,
  getSql,
  LAST_RANK,
  type ListScope,
  listSql,
  orderKeyCount,
  orderSignature,
  pageOffset,
  ranked,
  type SearchPlan,
  searchTerms,
  selectionSql,
} from './list-compiler.ts';
import { type ListTotal, pageWithTotal, type ShapedPage, searchPlan } from './list-count.ts';
import { plannedOnce, repeatsItsPlan } from './repeats-its-plan.ts';
import {
  column,
  columnarInsertSql,
  customColumnWrite,
  fieldOf,
  nameLiteral,
  pgArrayLiteral,
  rowJson,
  writeColumns,
} from './sql-fragments.ts';

const cursorSchema = z.object({ o: z.string(), v: z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])) });

function encodeCursor(signature: string, values: unknown[]): string {
  return Buffer.from(JSON.stringify({ o: signature, v: values })).toString('base64url');
}

/** The sort values a list's cursor continues after (none without a cursor); a cursor of another list is a 400. */
export function decodeCursor(entity: EntityDescription, query: ListQuery): unknown[] | undefined {
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
  // A rank is one of the three a ranked search gives (0 exact, 1 prefix, 2 any other match).
  if (
    offset === 1 &&
    !(Number.isInteger(values[0]) && (values[0] as number) >= 0 && (values[0] as number) <= LAST_RANK)
  )
    throw bad;
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

/** One page of a list, with the total its query asks for (none unless `count`) and the cursor of the next page. */
export async function listRecords(
  database: Database,
  entity: EntityDescription,
  query: ListQuery,
  scope?: ListScope,
): Promise<ListPage> {
  const cursorValues = decodeCursor(entity, query);
  const shaped = (!scope || scope.shape !== undefined) && database.textRows !== undefined;
  const filter = shaped && query.where ? filterParts(entity, query.where) : undefined;
  const estimate = shaped ? estimateKey(entity, query, filter, scope) : undefined;
  const search = await searchPlan(database, entity, query, scope, estimate);
  const prepare = repeatsItsPlan(entity, query, scope, search);
  const unseen = plannedOnce(query, prepare, database.kind);
  const { rows, ...total } = await pageWithTotal<{ row: string; cursor: unknown[] | string }>(
    database,
    entity,
    query,
    shaped
      ? shapedList(entity, query, cursorValues, search, scope, filter, estimate, unseen)
      : listSql(entity, query, cursorValues, scope, search, { unseen }),
    scope,
    { prepare },
  );
  const hasMore = rows.length > query.pageSize;
  const page = hasMore ? rows.slice(0, query.pageSize) : rows;
  const last = page.at(-1);
  const lastValues = last && jsonValue(last.cursor);
  return {
    rows: page.map((r) => r.row),
    ...total,
    nextCursor: hasMore && lastValues ? encodeCursor(orderSignature(query), lastValues) : null,
  };
}

/** Shapes of lists kept per description at most (filters' fields and operators, `select=`, `sort=`, `pageSize=`). */
const MAX_LIST_TEXTS = 256;
const listTexts = new WeakMap<EntityDescription, CompiledTexts>();

/**
 * A list as a ShapedPage: its shape is the query and its scope's shape but
 * for the scope's values (a related record's id), the filter's values, the
 * search's terms, the cursor's values and the offset, which each request
 * binds. A cursor's empty values are part of the shape (they change its
 * condition), and so is a ranked search's cursor rank (its page reads other
 * rows after each rank) and the search's plan (decision 0043). A scope
 * without a shape has no ShapedPage: such a list is built each time.
 * `unseen`: the statement binds its values out of the planner's sight
 * (BoundInstead's `unseen`, decisions 0054 and 0055), a shape of its own.
 */
export function shapedList(
  entity: EntityDescription,
  query: ListQuery,
  cursorValues?: unknown[],
  search: SearchPlan = 'walk',
  scope?: ListScope,
  filter: FilterParts | undefined = query.where ? filterParts(entity, query.where) : undefined,
  estimate: string | undefined = estimateKey(entity, query, filter, scope),
  unseen = false,
): ShapedPage {
  const scoping = scope?.shape;
  if (scope && !scoping) throw new Error('A scope without a shape has no kept text');
  let texts = listTexts.get(entity);
  if (!texts) {
    texts = new CompiledTexts(MAX_LIST_TEXTS);
    listTexts.set(entity, texts);
  }
  const terms = query.q ? searchTerms(query.q) : undefined;
  const isRanked = ranked(entity, query);
  const walked = isRanked && search === 'walk';
  // A ranked search's cursor starts with the rank, which chooses the page's conditions: kept as it is.
  const rank = isRanked && cursorValues ? cursorValues.slice(0, 1) : [];
  const afterRank = isRanked && cursorValues ? cursorValues.slice(1) : cursorValues;
  const offset = pageOffset(query, cursorValues);
  const paging = afterRank ? afterRank.map((v) => (v === null ? '-' : 'v')).join('') : offset > 0 ? 'offset' : 'first';
  const searching = terms ? [terms.separated, isRanked, search, rank] : null;
  const key = JSON.stringify([
    scoping?.key ?? null,
    filter?.shape ?? null,
    searching,
    query.select ?? null,
    query.join,
    query.sort,
    query.pageSize,
    paging,
    unseen,
  ]);
  const filterValues = filter?.values ?? [];
  // Prefix and term only rank the matches: a search in an order the caller gave binds its pattern alone.
  const termValues = terms ? (isRanked ? [terms.pattern, terms.prefix, terms.term] : [terms.pattern]) : [];
  const scopeValues = scoping?.values ?? [];
  const values = [
    ...scopeValues,
    ...filterValues,
    ...termValues,
    ...(afterRank ? afterRank.filter((v) => v !== null) : []),
    ...(offset > 0 ? [offset] : []),
    // A ranked search's page reads each rank's rows as far as the offset and the page reach.
    ...(offset > 0 && walked ? [offset + query.pageSize + 1] : []),
  ];
  const build = (bound: readonly unknown[]): SQL => {
    const scoped = scoping?.rebuild(bound.slice(0, scopeValues.length));
    const filterStart = scopeValues.length;
    let next = filterStart + filterValues.length;
    const boundTerms = terms && {
      pattern: bound[next++],
      prefix: isRanked ? bound[next++] : terms.prefix,
      term: isRanked ? bound[next++] : terms.term,
      separated: terms.separated,
    };
    const cursor = afterRank && [...rank, ...afterRank.map((v) => (v === null ? null : bound[next++]))];
    return listSql(entity, query, cursor, scoped, search, {
      filter: filter ? bound.slice(filterStart, filterStart + filterValues.length) : undefined,
      search: boundTerms,
      unseen,
      offset: offset > 0 ? bound[next] : undefined,
      reach: offset > 0 && walked ? bound[next + 1] : undefined,
    });
  };
  return { texts, key, values, build, estimateKey: estimate };
}

/** The key of a list's kept estimate (EstimateCache): its scope, filter (`filterParts`) and search, values included. */
function estimateKey(
  entity: EntityDescription,
  query: ListQuery,
  filter: FilterParts | undefined,
  scope: ListScope | undefined,
): string | undefined {
  if (!query.where && !query.q && !scope) return undefined;
  const scoping = scope?.shape;
  if (scope && !scoping) return undefined;
  return JSON.stringify([
    entity.table,
    scoping?.key ?? null,
    scoping?.values ?? null,
    filter?.shape ?? null,
    filter?.values ?? null,
    query.q ?? null,
  ]);
}

/** Selections of a get kept per description at most (`select=` can name any subset of fields). */
const MAX_GET_TEXTS = 256;
const getTexts = new WeakMap<EntityDescription, CompiledTexts>();

/**
 * A get without scope or joins bound from its text compiled once per
 * description and selection (building the SQL of a row's every field anew
 * was most of a get's time in Node). Undefined for a get with a scope or
 * joins, built each time.
 */
function boundGet(
  entity: EntityDescription,
  id: number,
  query: Pick<ListQuery, 'select' | 'join'>,
  scope?: ListScope,
): BoundText | undefined {
  if (scope || query.join.length > 0) return undefined;
  let texts = getTexts.get(entity);
  if (!texts) {
    texts = new CompiledTexts(MAX_GET_TEXTS);
    getTexts.set(entity, texts);
  }
  return texts.bind(query.select?.join(',') ?? '', [id], ([bound]) => getSql(entity, bound as number, query));
}

/** A record's JSON, and its version when the JSON holds one (for the ETag). */
export interface ReadRecord {
  row: string;
  version: number | null;
}

/** One record as its JSON text and version; 404 when there is none within the scope. */
export async function readRecord(
  database: Database,
  entity: EntityDescription,
  id: number,
  query: Pick<ListQuery, 'select' | 'join'>,
  scope?: ListScope,
  executor?: Executor,
): Promise<ReadRecord> {
  // A get has few shapes per resource (its selection and scope), run on most screens: planned once per connection.
  const bound = executor === undefined && database.textRows ? boundGet(entity, id, query, scope) : undefined;
  type Found = { row: string; version?: number | string | null };
  const [found] =
    bound && database.textRows
      ? await database.textRows<Found>(bound.text, bound.params, { prepare: true })
      : await database.rows<Found>(getSql(entity, id, query, scope), executor, { prepare: executor === undefined });
  if (!found) throw notFound(`${entity.label} ${id}`);
  return {
    row: found.row,
    version: found.version === undefined || found.version === null ? null : Number(found.version),
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
  return (await readRecord(database, entity, id, query, scope, executor)).row;
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

/** What a write's statement does beside the write, each from the checked rows (see auditedWriteSql). */
export interface WriteEffects {
  /** The audit event of each written row. */
  audit?: (source: SQL) => SQL;
  /** The record history entries of the written rows (crud/history-writes.ts); undefined when none are kept. */
  history?: (source: SQL) => SQL | undefined;
  /** The rows as they were before an update, `(id, j)`, read in the same snapshot: history's old values. */
  prior?: SQL;
}

/**
 * One statement for a write and what goes with it, as data-modifying CTEs that
 * share one snapshot and one commit (atomic without BEGIN and COMMIT):
 * - `written`: the INSERT or UPDATE, `returning t.id, <row JSON> as j`;
 * - `checked`: those rows, the statement failing unless `j` is one JSON object;
 * - `prior`: on update, the fields it sets as they were (the statement's snapshot is from before the write);
 * - `audit`: the event of each checked row (none when nothing was written);
 * - `history`: the record history entries of each checked row.
 * Answers `row` (JSON text) for each written row, then the rows of `miss`,
 * which say why nothing was written (`version`, `readable`).
 */
export function auditedWriteSql(write: SQL, effects: WriteEffects = {}, miss?: SQL): SQL {
  const history = effects.history?.(sql`checked`);
  const ctes: SQL[] = [];
  if (effects.prior) ctes.push(sql`prior as (${effects.prior})`);
  if (effects.audit) ctes.push(sql`audit as (${effects.audit(sql`checked`)})`);
  if (history) ctes.push(sql`history as (${history})`);
  return sql`with written as (${write}),
    checked as (select w.id, case when jsonb_typeof(w.j) = 'object' then w.j else ${notOneObject} end as j
      from written w)${ctes.length > 0 ? sql`, ${sql.join(ctes, sql`, `)}` : sql``}
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

/**
 * `insert into <table> ...` of the rows' values (see columnarInsertSql), with
 * who wrote them on records that keep it; `unseen` as columnarInsertSql says.
 */
function insertSql(
  entity: EntityDescription,
  rows: readonly Record<string, unknown>[],
  actor: Pick<Actor, 'userId'>,
  unseen = false,
): SQL {
  const writer = sql`${actor.userId}::bigint`;
  return columnarInsertSql(
    entity,
    rows,
    entity.kind === 'reference'
      ? []
      : [
          ['created_by_id', writer],
          ['updated_by_id', writer],
        ],
    unseen,
  );
}

/**
 * The statement of `createRecord`: the insert returning the row as JSON, its
 * record history entries, and with `origin` its audit event, in one statement
 * (the bench's SQL floor runs it too).
 */
export function createRecordSql(
  entity: EntityDescription,
  values: Record<string, unknown>,
  actor: Pick<Actor, 'userId'>,
  origin?: ChangeOrigin,
): SQL {
  return auditedWriteSql(
    sql`${insertSql(entity, [values], actor, true)} returning t.id, ${selectionSql(entity, allSelection)} as j`,
    {
      audit:
        origin &&
        ((source) =>
          recordChangeInsertSql(
            { type: 'recordCreated', actorId: actor.userId, ip: origin.ip, entity: entity.name },
            source,
          )),
      history: (source) =>
        historyInsertSql(entity, source, { action: 'created', changes: 'created', actorId: actor.userId }),
    },
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
    // Named outside a transaction: its plan is the same for any values (decision 0051).
    const [row] = await database.rows<{ row: string }>(statement, tx, { prepare: tx ? false : 'write' });
    if (!row) throw new Error(`${entity.label}: the insert returned no row`);
    return row.row;
  };
  if (executor || !entity.attachedTo) return insert(executor);
  return database.db.transaction((tx) => insert(tx));
}

/** Rows one insert statement writes at most (its arrays, the rows' JSON and history entries are built at once). */
const MAX_INSERT_ROWS = 5_000;

/**
 * Inserts many rows, each validated by `createSchema(entity)`, a statement
 * per `MAX_INSERT_ROWS`, in the caller's transaction: the same columns and
 * values `createRecord` writes, and their history entries. Answers each
 * row's id and version, in the order given.
 */
export async function createRecords(
  database: Database,
  entity: EntityDescription,
  validated: readonly Record<string, unknown>[],
  actor: Actor,
  executor: Executor,
  parts: readonly CreateParts[] = createRecordsParts(entity, validated, actor),
): Promise<{ id: number; version: number }[]> {
  await checkAttachmentTargets(database, entity, validated, actor, executor);
  const created: { id: number; version: number }[] = [];
  for (const part of parts) {
    const written = await database.rows<{ id: number | string; version: number | string }>(
      sql`with ${part.ctes} select id, ${part.version} as version from written`,
      executor,
    );
    // The insert returns its rows in the order of its arrays.
    created.push(...written.map((row) => ({ id: Number(row.id), version: Number(row.version) })));
  }
  return created;
}

/**
 * One statement of `createRecords` as the parts of its WITH: `ctes` insert
 * the rows (`written`, each row's `id`) and their history entries; `version`
 * reads a written row's version. Built apart so that an import builds a
 * batch's while the batch before is being written, and adds its own parts
 * (its ledger and progress) to the same statement.
 */
export interface CreateParts {
  ctes: SQL;
  version: SQL;
}

/** The parts of `createRecords`' statements for these rows, one per `MAX_INSERT_ROWS`. */
export function createRecordsParts(
  entity: EntityDescription,
  validated: readonly Record<string, unknown>[],
  actor: Pick<Actor, 'userId'>,
): CreateParts[] {
  const parts: CreateParts[] = [];
  for (let i = 0; i < validated.length; i += MAX_INSERT_ROWS) {
    const insert = insertSql(entity, validated.slice(i, i + MAX_INSERT_ROWS), actor);
    // Each row's history entry in the same statement, its values read from the row's columns.
    const history = historyInsertSql(entity, sql`written`, {
      action: 'created',
      changes: 'created',
      actorId: actor.userId,
      fromColumns: true,
    });
    const version = entity.kind === 'reference' ? sql`1` : sql`version`;
    parts.push(
      history
        ? { ctes: sql`written as (${insert} returning t.*), history as (${history})`, version }
        : { ctes: sql`written as (${insert} returning t.id, ${version} as version)`, version: sql`version` },
    );
  }
  return parts;
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

/** Where an update comes from and whom it may touch; `action` names its history entries (a field restored). */
export interface UpdateOptions {
  origin?: ChangeOrigin;
  scope?: ListScope;
  action?: Extract<HistoryAction, 'updated' | 'restored'>;
}

/** What every update of a record sets beside its fields: the next version, when, and by whom. */
function updateBookkeeping(actorId: number | null): [string, SQL][] {
  return [
    ['version', sql`t.version + 1`],
    ['updated_at', sql`now()`],
    ['updated_by_id', sql`${actorId}`],
  ];
}

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
  { origin, scope, action = 'updated' }: UpdateOptions = {},
): SQL | undefined {
  const assignments = assignmentsOf(entity, values, true);
  if (assignments.length === 0) return undefined;
  const fields = allFields(entity);
  const set = Object.keys(values).filter((name) => {
    const field = fields[name];
    return values[name] !== undefined && field && isWritable(field);
  });
  assignments.push(...updateBookkeeping(actor.userId));
  const table = sql.identifier(entity.table);
  const readable = readableWhere(scope);
  return auditedWriteSql(
    sql`update ${table} as t set ${sql.join(
      assignments.map(([c, v]) => sql`${sql.identifier(c)} = ${v}`),
      sql`, `,
    )} where t.id = ${id} and t.version = ${version} and ${readable}
      returning t.id, ${selectionSql(entity, allSelection)} as j`,
    {
      audit:
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
      prior: sql`select t.id, ${rowJson(entity, 't', set)} as j from ${table} t where t.id = ${id}`,
      history: (source) =>
        historyInsertSql(entity, source, {
          action,
          changes: 'updated',
          actorId: actor.userId,
          prior: sql`prior`,
        }),
    },
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
  options: UpdateOptions = {},
): Promise<string> {
  assertSetReferencesReadable(actor, entity, values);
  const { scope } = options;
  const statement = updateRecordSql(entity, id, version, values, actor, options);
  if (!statement) throw invalid({ body: 'Send at least one field to change' }, 'Nothing to update');
  const [found] = await database.rows<{ row: string | null } & Missed>(statement, executor, {
    prepare: executor ? false : 'write',
  });
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

/**
 * The reference fields of other entities' rows to `parent` whose foreign key,
 * when a row of `parent` is deleted, deletes the row (`cascade`) or empties
 * the reference (`setNull`).
 */
function referencesTo(
  parent: EntityDescription,
  onDelete: 'cascade' | 'setNull',
): { child: EntityDescription; field: string }[] {
  return entityList.flatMap((child) =>
    Object.entries(child.fields)
      .filter(([, f]) => f.type === 'reference' && f.to === parent.name && f.onDelete === onDelete)
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
  for (const { child, field } of referencesTo(entity, 'cascade')) {
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
 * References a delete emptied (`onDelete: setNull`): the rows of `entity`
 * whose `field` named record `to`, the deleted record or one that cascaded
 * away with it (a deal's fund, a contact's firm).
 */
export interface EmptiedReference {
  entity: string;
  field: string;
  to: number;
  ids: number[];
}

/**
 * What a deleted record's history entry keeps for a restore: every row deleted
 * with it, parents first, its files' ids, and the references the delete
 * emptied (snapshots written before session 13 have no `emptied`).
 */
export interface DeletedSnapshot {
  rows: { entity: string; row: Record<string, unknown> }[];
  files: number[];
  emptied?: EmptiedReference[];
}

/**
 * The references a delete of `deleted` (the list `entriesOfDeletedWith`
 * walks) is about to empty, read before it, in one statement. No reference
 * can be added meanwhile: the rows going are locked `for update`.
 */
async function referencesEmptiedBy(
  database: Database,
  deleted: [EntityDescription, number[]][],
  tx: Executor,
): Promise<EmptiedReference[]> {
  const selects = deleted.flatMap(([parent, ids]) =>
    referencesTo(parent, 'setNull').map(({ child, field }) => {
      const referring = column('t', columnName(field));
      return sql`select ${child.name}::text as entity, ${field}::text as field, ${referring} as target,
          jsonb_agg(t.id order by t.id) as ids
        from ${sql.identifier(child.table)} t where ${referring} = any(${pgArrayLiteral(ids)}::bigint[])
        group by ${referring}`;
    }),
  );
  if (selects.length === 0) return [];
  const rows = await database.rows<{
    entity: string;
    field: string;
    target: number | string;
    ids: (number | string)[] | string;
  }>(sql.join(selects, sql` union all `), tx);
  return rows.map((row) => ({
    entity: row.entity,
    field: row.field,
    to: Number(row.target),
    ids: jsonValue(row.ids).map(Number),
  }));
}

/**
 * Puts back a reference a delete emptied, on the rows of `reference.ids`
 * that `within` keeps (a condition on `t`: what the actor may update), that
 * still exist, whose field is still empty, and whose record `to` is back
 * (a reference set to another record since, or a row deleted since, stays as
 * it is). An update like any other: next version, `updated_at` and who, and
 * a `restored` history entry from none to the id, in one statement. Answers
 * how many rows it put back.
 */
export async function restoreEmptiedReference(
  database: Database,
  entity: EntityDescription,
  reference: EmptiedReference,
  actorId: number | null,
  within: SQL,
  tx: Executor,
): Promise<number> {
  const field = fieldOf(entity, reference.field);
  const target = field.type === 'reference' && field.to ? findEntity(field.to) : undefined;
  if (!target) throw new Error(`${entity.name}.${reference.field} is not a reference`);
  const table = sql.identifier(entity.table);
  const ids = sql`${pgArrayLiteral(reference.ids)}::bigint[]`;
  const assignments = [...writeColumns(reference.field, field, reference.to), ...updateBookkeeping(actorId)];
  const written = await database.rows<{ row: string }>(
    auditedWriteSql(
      sql`update ${table} as t set ${sql.join(
        assignments.map(([c, v]) => sql`${sql.identifier(c)} = ${v}`),
        sql`, `,
      )} where t.id = any(${ids}) and ${column('t', columnName(reference.field))} is null and ${within}
          and exists (select 1 from ${sql.identifier(target.table)} r where r.id = ${reference.to})
        returning t.id, ${selectionSql(entity, allSelection)} as j`,
      {
        prior: sql`select t.id, ${rowJson(entity, 't', [reference.field])} as j from ${table} t where t.id = any(${ids})`,
        history: (source) =>
          historyInsertSql(entity, source, { action: 'restored', changes: 'updated', actorId, prior: sql`prior` }),
      },
    ),
    tx,
  );
  return written.length;
}

/**
 * The rows of `ids` of `entity` as stored (`to_jsonb`: columns, not the API's
 * JSON, so that they can be written back as they were), then what their
 * foreign keys cascade to and the notes and files attached to them; locked.
 */
async function collectSnapshot(
  database: Database,
  entity: EntityDescription,
  ids: number[],
  tx: Executor,
  snapshot: DeletedSnapshot,
  depth = 0,
): Promise<void> {
  const rows = await database.rows<{ id: number | string; r: Record<string, unknown> }>(
    sql`select t.id, to_jsonb(t) as r from ${sql.identifier(entity.table)} t
      where t.id = any(${pgArrayLiteral(ids)}::bigint[]) order by t.id for update`,
    tx,
  );
  if (rows.length === 0) return;
  for (const row of rows) snapshot.rows.push({ entity: entity.name, row: row.r });
  const found = rows.map((row) => Number(row.id));
  if (attachable.has(entity.name)) {
    for (const attached of attachmentEntities) {
      const { entityField, idField } = attached.attachedTo as { entityField: string; idField: string };
      const rowsOf = await database.rows<{ id: number | string; r: Record<string, unknown> }>(
        sql`select a.id, to_jsonb(a) as r from ${sql.identifier(attached.table)} a
          where ${column('a', columnName(entityField))} = ${entity.name}
            and ${column('a', columnName(idField))} = any(${pgArrayLiteral(found)}::bigint[]) order by a.id`,
        tx,
      );
      for (const row of rowsOf) snapshot.rows.push({ entity: attached.name, row: row.r });
      if (attached.storesBytes) snapshot.files.push(...rowsOf.map((row) => Number(row.id)));
    }
  }
  if (depth > 8) return;
  for (const { child, field } of referencesTo(entity, 'cascade')) {
    const children = await database.rows<{ id: number | string }>(
      sql`select id from ${sql.identifier(child.table)}
        where ${sql.identifier(columnName(field))} = any(${pgArrayLiteral(found)}::bigint[])`,
      tx,
    );
    if (children.length > 0) {
      await collectSnapshot(
        database,
        child,
        children.map((c) => Number(c.id)),
        tx,
        snapshot,
        depth + 1,
      );
    }
  }
}

/**
 * The history entries of the rows a delete changes beside the record
 * (docs/decisions/0028), in one statement run before the delete, while those
 * rows are still there. `deleted` are the rows going: the record itself
 * first, then the records its foreign keys cascade to (`rowsDeletedWith`):
 * - link rows that cascade away: on the timelines of the records at their
 *   other ends ("link removed");
 * - records that cascade away (a fund's performance records): a deletion on
 *   their own timelines (their rows are in the record's snapshot and come
 *   back with it);
 * - references the delete empties (`onDelete: setNull`, a contact's firm):
 *   an update of the referring row, from the value to none.
 */
async function entriesOfDeletedWith(
  database: Database,
  entity: EntityDescription,
  id: number,
  deleted: [EntityDescription, number[]][],
  actorId: number | null,
  tx: Executor,
): Promise<void> {
  const inserts: SQL[] = [];
  const rowsOf = (of: EntityDescription, where: SQL, extra = sql``) =>
    sql`(select t.id, ${selectionSql(of, allSelection)}${extra} as j from ${sql.identifier(of.table)} t where ${where})`;
  for (const [i, [parent, ids]] of deleted.entries()) {
    const among = (field: string) => sql`${column('t', columnName(field))} = any(${pgArrayLiteral(ids)}::bigint[])`;
    for (const { child, field } of referencesTo(parent, 'cascade')) {
      // A record that cascades away is in `deleted` itself.
      if (child.attachable) continue;
      const insert = historyInsertSql(child, rowsOf(child, among(field)), {
        action: 'deleted',
        changes: 'deleted',
        actorId,
        except: { entity: entity.name, id },
      });
      if (insert) inserts.push(insert);
    }
    for (const { child, field } of referencesTo(parent, 'setNull')) {
      const emptied = sql` || jsonb_build_object(${nameLiteral(field)}::text, null)`;
      const insert = historyInsertSql(child, rowsOf(child, among(field), emptied), {
        action: 'updated',
        changes: 'updated',
        actorId,
        prior: sql`(select t.id, ${rowJson(child, 't', [field])} as j from ${sql.identifier(child.table)} t
          where ${among(field)})`,
      });
      if (insert) inserts.push(insert);
    }
    // The record's own entry is the delete's; the records cascading away (after it) get theirs here,
    // with their custom fields, as their own delete would keep them.
    if (i === 0) continue;
    const described = await currentDescription(database, parent);
    const insert = historyInsertSql(described, rowsOf(described, among('id')), {
      action: 'deleted',
      changes: 'deleted',
      actorId,
    });
    if (insert) inserts.push(insert);
  }
  if (inserts.length === 0) return;
  await database.rows(
    sql`with ${sql.join(
      inserts.map((insert, n) => sql`${sql.identifier(`h${n}`)} as (${insert})`),
      sql`, `,
    )} select 1`,
    tx,
  );
}

/**
 * Deletes a row in the caller's transaction (see `deleteRecord`). Answers the
 * ids of the files whose bytes are to be removed once it commits (none for a
 * record of an `attachable` entity: its files' bytes stay for a restore).
 */
export async function deleteRecordWithin(
  database: Database,
  entity: EntityDescription,
  id: number,
  version: number | undefined,
  tx: Executor,
  actorId: number | null = null,
): Promise<number[]> {
  const removedFiles: number[] = [];
  const versionCheck = version === undefined ? sql`true` : sql`t.version = ${version}`;
  const owned = await rowsDeletedWith(database, entity, [id], tx);
  const snapshot: DeletedSnapshot = { rows: [], files: [], emptied: [] };
  const deletedWith: [EntityDescription, number[]][] = entity.attachable ? owned : [[entity, [id]], ...owned];
  if (entity.attachable) {
    await collectSnapshot(database, entity, [id], tx, snapshot);
    snapshot.emptied = await referencesEmptiedBy(database, deletedWith, tx);
  }
  await entriesOfDeletedWith(database, entity, id, deletedWith, actorId, tx);
  const deleted = await database.rows<{ row: string }>(
    auditedWriteSql(
      sql`delete from ${sql.identifier(entity.table)} as t where t.id = ${id} and ${versionCheck}
        returning t.id, ${selectionSql(entity, allSelection)} as j`,
      {
        history: (source) =>
          historyInsertSql(entity, source, {
            action: 'deleted',
            changes: 'deleted',
            actorId,
            snapshot: entity.attachable ? snapshot : undefined,
          }),
      },
    ),
    tx,
  );
  if (deleted.length === 0) {
    const [exists] = await database.rows(sql`select 1 from ${sql.identifier(entity.table)} where id = ${id}`, tx);
    if (!exists) throw notFound(`${entity.label} ${id}`);
    throw staleVersion(`${entity.label} ${id} was changed by someone else; reload it first`);
  }
  const kept = new Set(snapshot.files);
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
      if (attached.storesBytes) removedFiles.push(...gone.map((g) => Number(g.id)).filter((g) => !kept.has(g)));
    }
  }
  return removedFiles;
}

/** What `deleteUntouchedRecords` did with each record it was given. */
export interface UntouchedDeletes {
  deleted: number[];
  /** Still at their version, but with rows that go or change with them: for `deleteRecord`, one by one. */
  referred: number[];
  /** Gone already. */
  missing: number[];
  /** At another version than the one given. */
  changed: number[];
}

/**
 * Whether any row refers to record `t.id` of `entity`: a row of any entity
 * whose reference names it (cascading, emptied or restricting), or, for an
 * entity records attach to, a note, file or task on it. Each such column
 * leads an index.
 */
function referredSql(entity: EntityDescription): SQL {
  const checks = entityList.flatMap((child) =>
    Object.entries(child.fields)
      .filter(([, f]) => f.type === 'reference' && f.to === entity.name && !f.custom)
      .map(
        ([field]) =>
          sql`exists (select 1 from ${sql.identifier(child.table)} r where ${column('r', columnName(field))} = t.id)`,
      ),
  );
  if (entity.attachable) {
    for (const attached of attachmentEntities) {
      const { entityField, idField } = attached.attachedTo as { entityField: string; idField: string };
      checks.push(
        sql`exists (select 1 from ${sql.identifier(attached.table)} a
          where ${column('a', columnName(entityField))} = ${entity.name} and ${column('a', columnName(idField))} = t.id)`,
      );
    }
  }
  return checks.length > 0 ? sql.join(checks, sql` or `) : sql`false`;
}

/**
 * Deletes, in two statements whatever their number, the records of `items`
 * still at their version that no row refers to and nothing is attached to:
 * the records an import created and nobody touched since, as its undo finds
 * them. Each gets the history entry `deleteRecordWithin` writes for such a
 * record: its values, and a snapshot of its one row for a restore. With
 * `erase` (an all-or-nothing import taken back) each goes with the created
 * entry the import wrote instead, leaving no trace (docs/decisions/0044).
 * The others are answered, locked, for the caller to handle.
 */
export async function deleteUntouchedRecords(
  database: Database,
  entity: EntityDescription,
  items: readonly { id: number; version: number }[],
  actorId: number | null,
  tx: Executor,
  erase = false,
): Promise<UntouchedDeletes> {
  const result: UntouchedDeletes = { deleted: [], referred: [], missing: [], changed: [] };
  if (items.length === 0) return result;
  const table = sql.identifier(entity.table);
  const ids = items.map((item) => item.id);
  const locked = await database.rows<{ id: number | string; version: number | string; referred: boolean }>(
    sql`select t.id, t.version, (${referredSql(entity)}) as referred from ${table} t
      where t.id = any(${pgArrayLiteral(ids)}::bigint[]) order by t.id for update`,
    tx,
  );
  const found = new Map(locked.map((row) => [Number(row.id), row]));
  const plain: number[] = [];
  for (const { id, version } of items) {
    const row = found.get(id);
    if (!row) result.missing.push(id);
    else if (Number(row.version) !== version) result.changed.push(id);
    else if (row.referred) result.referred.push(id);
    else plain.push(id);
  }
  if (plain.length === 0) return result;
  // As collectSnapshot keeps a record with nothing beside it: its row as stored, no files, no references emptied.
  const snapshotSql = entity.attachable
    ? sql`jsonb_build_object('rows', jsonb_build_array(jsonb_build_object('entity', ${entity.name}::text, 'row', c.r)),
        'files', '[]'::jsonb, 'emptied', '[]'::jsonb)`
    : undefined;
  const history = erase
    ? historyEraseSql(entity, sql`gone`)
    : historyInsertSql(entity, sql`gone`, { action: 'deleted', changes: 'deleted', actorId, snapshotSql });
  const returned = erase ? sql`t.*` : sql`t.id, ${selectionSql(entity, allSelection)} as j, to_jsonb(t) as r`;
  const deleted = await database.rows<{ id: number | string }>(
    sql`with gone as (delete from ${table} as t where t.id = any(${pgArrayLiteral(plain)}::bigint[]) returning ${returned})
      ${history ? sql`, history as (${history})` : sql``}
      select id from gone`,
    tx,
  );
  result.deleted = deleted.map((row) => Number(row.id));
  return result;
}

/**
 * Deletes a row. Rows that foreign keys cascade to (links, a fund's
 * performances) go with it; notes and files attached to any of them are
 * deleted in the same transaction. Its history entry, and the entries of the
 * rows it changes beside it (`entriesOfDeletedWith`), are written in the same
 * transaction; a record's entry keeps a snapshot of every row deleted with
 * it, for a restore, and its files' bytes stay until the retention period
 * ends (routes/history.ts prunes them). Other stored bytes (a file deleted on
 * its own) are removed once it commits.
 * `alongside` writes in the same transaction (the audit event), so that both or neither happen.
 */
export async function deleteRecord(
  database: Database,
  entity: EntityDescription,
  id: number,
  version: number | undefined,
  dataDir: string,
  alongside?: (tx: Executor) => Promise<void>,
  actorId: number | null = null,
): Promise<void> {
  const removedFiles = await database.db.transaction(async (tx) => {
    const removed = await deleteRecordWithin(database, entity, id, version, tx, actorId);
    await alongside?.(tx);
    return removed;
  });
  await Promise.all(removedFiles.map((fileId) => rm(storedFilePath(dataDir, fileId), { force: true })));
}

/** Where the bytes of a stored file live: named by the row id, never by anything the client sent. */
export function storedFilePath(dataDir: string, fileId: number): string {
  return path.join(dataDir, 'files', String(fileId));
}
