import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { countedEntities } from '@data-platform/shared/entities/registry';
import { parseListQueryString } from '@data-platform/shared/query/list-query';
import { type DashboardSummaries, dashboardBreakdowns, type GroupCount } from '@data-platform/shared/summaries';
import { sql } from 'drizzle-orm';
import { readableEntity, readableScope } from '../access/reading.ts';
import type { Actor } from '../auth/actor.ts';
import { countRows } from '../crud/list-count.ts';
import { listRecords } from '../crud/records.ts';
import type { Database } from '../db/client.ts';
import { columnName } from '../db/columns.ts';

/** Rows per value of a picklist field, in the picklist's order, with empty values last. */
export async function countByValue(
  database: Database,
  entity: EntityDescription,
  field: string,
): Promise<GroupCount[]> {
  const rows = await database.rows<{ value: string | null; count: number }>(
    sql`select ${sql.identifier(columnName(field))} as value, count(*)::int as count
      from ${sql.identifier(entity.table)} group by 1`,
  );
  const byValue = new Map(rows.map((r) => [r.value, r.count]));
  const options = entity.fields[field]?.options ?? [];
  const result: GroupCount[] = options.map((value) => ({ value, count: byValue.get(value) ?? 0 }));
  const empty = byValue.get(null);
  if (empty) result.push({ value: null, count: empty });
  return result;
}

/**
 * What the home dashboard shows: how many records of each type the
 * descriptions count, the breakdowns they ask for (the deal pipeline,
 * investors by fundraising status, funds by status) and the latest notes;
 * each part only when the actor may read it.
 */
export async function dashboardSummaries(database: Database, actor: Actor): Promise<DashboardSummaries> {
  const counts: DashboardSummaries['counts'] = {};
  // The descriptions say what is counted (`dashboard.count`).
  for (const { name } of countedEntities) {
    const entity = readableEntity(actor, name);
    if (entity) {
      const query = parseListQueryString(entity, {});
      // Exact while small, the planner's estimate above: what the home page shows ("≈ 1.2M").
      counts[name] = await countRows(database, entity, query, 'estimated', readableScope(entity, actor));
    }
  }
  const summaries: DashboardSummaries = { counts };
  for (const { key, resource, field } of dashboardBreakdowns) {
    const entity = readableEntity(actor, resource);
    if (entity) summaries[key] = await countByValue(database, entity, field);
  }
  const notes = readableEntity(actor, 'notes');
  if (notes) {
    const query = parseListQueryString(notes, {
      select: 'body,entity,recordId,createdAt',
      join: 'createdBy(fullName)',
      sort: '-createdAt',
      pageSize: '10',
    });
    const page = await listRecords(database, notes, query, readableScope(notes, actor));
    summaries.recentNotes = page.rows.map(
      (row) => JSON.parse(row) as NonNullable<DashboardSummaries['recentNotes']>[number],
    );
  }
  return summaries;
}
