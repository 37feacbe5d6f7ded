import { readableAttachmentTypes, readableDescription } from '@data-platform/shared/entities/access';
import { allFields, type EntityDescription, referenceRelationName } from '@data-platform/shared/entities/entity';
import { recordName } from '@data-platform/shared/entities/record-name';
import { countedEntities, findEntity } from '@data-platform/shared/entities/registry';
import { parseListQueryString } from '@data-platform/shared/query/list-query';
import {
  breakdownAmountField,
  type DashboardSummaries,
  dashboardBreakdowns,
  type GroupCount,
  type MyRecordCount,
  ownedEntities,
  type RecentNote,
} from '@data-platform/shared/summaries';
import { type SQL, sql } from 'drizzle-orm';
import { limitJoins, readableEntity, readableScope, readerDescription } from '../access/reading.ts';
import type { Actor } from '../auth/actor.ts';
import { type ListScope, ROOT, whereSql } from '../crud/list-compiler.ts';
import { countRows } from '../crud/list-count.ts';
import { listRecords } from '../crud/records.ts';
import { column, nameLiteral, rowJson, valueExpr } from '../crud/sql-fragments.ts';
import type { Database } from '../db/client.ts';
import { columnName, currencyColumnName } from '../db/columns.ts';

/**
 * The rows of `entity` the actor may read, as a condition on the row aliased
 * `alias`: what its list keeps (`readableScope`), or true. The scope speaks of
 * the list's alias, so a row under another alias is kept when its id is among
 * the scope's rows.
 */
function readableRowSql(entity: EntityDescription, actor: Actor, alias: string): SQL {
  const scope = readableScope(entity, actor);
  if (!scope) return sql`true`;
  return sql`${column(alias, 'id')} in (select ${column(ROOT, 'id')} from ${sql.identifier(entity.table)} ${sql.identifier(ROOT)}
    where ${whereSql(entity, {}, scope)})`;
}

/**
 * Rows per value of a picklist field, in the picklist's order, with empty
 * values last; with `amountField` (money), the sum of its amounts per value
 * and currency. Counted over the rows the actor's list of the entity shows
 * (its row scope), and only when the actor may read the fields: undefined
 * otherwise, like the list refusing to filter on a field it does not show.
 * The rows are read from `reader` (a read replica, `readerFor`), the custom
 * field definitions from `database` (the primary's cache).
 */
export async function countByValue(
  database: Database,
  entity: EntityDescription,
  field: string,
  actor: Actor,
  amountField?: string,
  reader: Database = database,
): Promise<GroupCount[] | undefined> {
  if (!readableEntity(actor, entity.name)) return undefined;
  const described = await readerDescription(database, entity, actor);
  const fields = allFields(described);
  const grouped = fields[field];
  if (!grouped) return undefined;
  const amount = amountField && fields[amountField]?.type === 'money' ? amountField : undefined;
  const money = amount
    ? sql`${column(ROOT, currencyColumnName(amount))} as currency, sum(${column(ROOT, columnName(amount))})::float8 as amount`
    : sql`null::text as currency, null::float8 as amount`;
  const rows = await reader.rows<{
    value: string | null;
    currency: string | null;
    amount: number | null;
    count: number;
  }>(
    sql`select ${valueExpr(ROOT, field, grouped)} as value, ${money}, count(*)::int as count
      from ${sql.identifier(entity.table)} ${sql.identifier(ROOT)}
      where ${whereSql(described, {}, readableScope(entity, actor))}
      group by 1, 2`,
  );
  const byValue = new Map<string | null, GroupCount>();
  for (const row of rows) {
    const group = byValue.get(row.value) ?? { value: row.value, count: 0, ...(amount ? { amounts: [] } : {}) };
    group.count += row.count;
    if (row.currency !== null && row.amount !== null)
      group.amounts?.push({ currency: row.currency, amount: row.amount });
    byValue.set(row.value, group);
  }
  for (const group of byValue.values()) group.amounts?.sort((a, b) => b.amount - a.amount);
  const options = grouped.options ?? [];
  const result: GroupCount[] = options.map(
    (value) => byValue.get(value) ?? { value, count: 0, ...(amount ? { amounts: [] } : {}) },
  );
  const empty = byValue.get(null);
  if (empty) result.push(empty);
  return result;
}

/**
 * What names a note's record in one statement: per record type the actor
 * may read, its display field (and the display field of the record it is
 * named within), read only when the actor may read that row. `recordName`
 * then names it as everywhere else.
 */
function noteRecordSql(notes: EntityDescription, actor: Actor): SQL | undefined {
  const attached = notes.attachedTo;
  if (!attached) return undefined;
  const branches: SQL[] = [];
  for (const name of readableAttachmentTypes(notes, actor.permissions)) {
    const entity = findEntity(name);
    if (!entity) continue;
    const readable = allFields(readableDescription(entity, actor.permissions));
    if (!readable[entity.display]) continue;
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
    branches.push(
      sql`when ${nameLiteral(name)} then (select ${rowJson(entity, 'r', ['id', entity.display], extra)}
        from ${sql.identifier(entity.table)} r
        where r.id = ${column(ROOT, columnName(attached.idField))} and ${readableRowSql(entity, actor, 'r')})`,
    );
  }
  if (branches.length === 0) return undefined;
  return sql`case ${column(ROOT, columnName(attached.entityField))} ${sql.join(branches, sql` `)} end`;
}

/** The latest notes the actor may read, each with its record's name (null when that record is not the actor's to read). */
async function recentNotes(database: Database, reader: Database, actor: Actor): Promise<RecentNote[] | undefined> {
  const notes = readableEntity(actor, 'notes');
  if (!notes) return undefined;
  const described = await readerDescription(database, notes, actor);
  const query = parseListQueryString(described, {
    select: 'body,entity,recordId,createdAt',
    join: 'createdBy(fullName)',
    sort: '-createdAt',
    pageSize: '10',
  });
  limitJoins(actor, query);
  const record = noteRecordSql(notes, actor);
  const readable = readableScope(notes, actor);
  const scope: ListScope = {
    where: readable?.where ?? sql`true`,
    extra: [...(readable?.extra ?? []), ...(record ? ([['record', record]] as [string, SQL][]) : [])],
  };
  const page = await listRecords(reader, described, query, scope);
  return page.rows.map((text) => {
    const { record: named, ...note } = JSON.parse(text) as Omit<RecentNote, 'recordName'> & {
      record?: Record<string, unknown> | null;
    };
    const entity = findEntity(note.entity);
    return { ...note, recordName: named && entity ? recordName(entity, named) : null };
  });
}

/**
 * How many records of each owned type (`ownedEntities`) name the actor as
 * owner: the count the list filtered on the owner would show (exact while
 * small, the planner's estimate above, as the dashboard's other counts), over
 * the rows the actor may read.
 */
async function myRecords(database: Database, reader: Database, actor: Actor): Promise<MyRecordCount[] | undefined> {
  const userId = actor.userId;
  if (userId === null) return undefined;
  const mine: MyRecordCount[] = [];
  for (const { resource, field } of ownedEntities) {
    const entity = readableEntity(actor, resource);
    if (!entity) continue;
    const described = await readerDescription(database, entity, actor);
    if (!allFields(described)[field]) continue;
    const query = parseListQueryString(described, { [`filter[${field}][eq]`]: String(userId) });
    const total = await countRows(reader, described, query, 'estimated', readableScope(entity, actor));
    mine.push({ resource, field, userId, ...total });
  }
  return mine.length > 0 ? mine : undefined;
}

/**
 * What the home dashboard shows: how many records of each type the
 * descriptions count, the breakdowns they ask for (the deal pipeline with its
 * amounts per currency, investors by fundraising status, funds by status),
 * the latest notes with their records' names, and the actor's own records;
 * each part only when the actor may read it, and every figure over the rows
 * and fields the actor's lists show (the same row scope, the same fields).
 * Read from `reader` as lists are (a read replica once it holds the caller's
 * own writes), the custom field definitions from `database`.
 */
export async function dashboardSummaries(
  database: Database,
  actor: Actor,
  reader: Database = database,
): Promise<DashboardSummaries> {
  const counts: DashboardSummaries['counts'] = {};
  // The descriptions say what is counted (`dashboard.count`).
  for (const { name } of countedEntities) {
    const entity = readableEntity(actor, name);
    if (entity) {
      const query = parseListQueryString(entity, {});
      // Exact while small, the planner's estimate above: what the home page shows ("≈ 1.2M").
      counts[name] = await countRows(reader, entity, query, 'estimated', readableScope(entity, actor));
    }
  }
  const summaries: DashboardSummaries = { counts };
  for (const { key, resource, field } of dashboardBreakdowns) {
    const entity = findEntity(resource);
    const groups = entity
      ? await countByValue(database, entity, field, actor, breakdownAmountField(resource), reader)
      : undefined;
    if (groups) summaries[key] = groups;
  }
  const notes = await recentNotes(database, reader, actor);
  if (notes) summaries.recentNotes = notes;
  const mine = await myRecords(database, reader, actor);
  if (mine) summaries.mine = mine;
  return summaries;
}
