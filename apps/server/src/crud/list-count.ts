import type { EntityDescription } from '@data-platform/shared/entities/entity';
import type { ListQuery } from '@data-platform/shared/query/list-query';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { type ListScope, ROOT, whereSql } from './list-compiler.ts';

/** Lists count exactly up to this many rows; above it they answer the planner's estimate. */
export const EXACT_COUNT_CAP = 10_000;
/**
 * A list the planner expects to be this many times over the cap answers the
 * estimate without counting (counting reads cap + 1 rows: milliseconds on
 * every page of a big table). Estimates are rarely off by that much.
 */
const ESTIMATE_MARGIN = 10;

/** Counts matching rows, stopping at `cap + 1`. */
export function cappedCountSql(entity: EntityDescription, query: ListQuery, cap: number, scope?: ListScope): SQL {
  return sql`select count(*)::int as n from (select 1 from ${sql.identifier(entity.table)} ${sql.identifier(ROOT)}
    where ${whereSql(entity, query, scope)} limit ${cap + 1}) s`;
}

/** The planner's estimate of the matching rows. */
export function estimateSql(entity: EntityDescription, query: ListQuery, scope?: ListScope): SQL {
  return sql`explain (format json) select 1 from ${sql.identifier(entity.table)} ${sql.identifier(ROOT)}
    where ${whereSql(entity, query, scope)}`;
}

/** Exact up to the cap, the planner's estimate above it. */
export async function countRows(
  database: Database,
  entity: EntityDescription,
  query: ListQuery,
  scope?: ListScope,
): Promise<{ total: number; totalExact: boolean }> {
  const [plan] = await database.rows<{ 'QUERY PLAN': unknown }>(estimateSql(entity, query, scope));
  const raw = plan?.['QUERY PLAN'];
  const json = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: { 'Plan Rows': number } }];
  const estimate = Math.round(json[0].Plan['Plan Rows']);
  // Far above the cap the count would only confirm the estimate, at the cost of reading cap + 1 rows.
  if (estimate > EXACT_COUNT_CAP * ESTIMATE_MARGIN) return { total: estimate, totalExact: false };
  const [counted] = await database.rows<{ n: number }>(cappedCountSql(entity, query, EXACT_COUNT_CAP, scope));
  const n = counted?.n ?? 0;
  if (n <= EXACT_COUNT_CAP) return { total: n, totalExact: true };
  return { total: Math.max(EXACT_COUNT_CAP + 1, estimate), totalExact: false };
}
