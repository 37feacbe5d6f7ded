import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { type CountMode, ESTIMATED_COUNT_THRESHOLD, type ListQuery } from '@data-platform/shared/query/list-query';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { type Database, jsonValue, type RowsOptions } from '../db/client.ts';
import type { CompiledTexts } from './compiled-texts.ts';
import { type ListScope, ROOT, ranked, type SearchPlan, whereSql } from './list-compiler.ts';

/**
 * A list's total as the caller asked for it (`count=`): null and null when
 * no count was asked; `totalExact` false when `total` is the planner's estimate.
 */
export interface ListTotal {
  total: number | null;
  totalExact: boolean | null;
}

/** A total that was asked for: always a number. */
export interface CountedTotal {
  total: number;
  totalExact: boolean;
}

type Filtered = Pick<ListQuery, 'where' | 'q'>;

/** No filter, no search and no scope: the whole table, whose size the catalog knows without planning. */
function wholeTable(query: Filtered, scope?: ListScope): boolean {
  return !query.where && !query.q && !scope;
}

/**
 * The exact number of matching rows. It selects no column, so the planner
 * may answer from an index alone; no row is turned into JSON.
 */
function countSql(entity: EntityDescription, query: Filtered, scope?: ListScope): SQL {
  return sql`(select count(*) from ${sql.identifier(entity.table)} ${sql.identifier(ROOT)}
    where ${whereSql(entity, query, scope)})`;
}

/**
 * The rows of the whole table as the planner reckons them without planning
 * anything: the catalog's rows per page at the last VACUUM/ANALYZE, times the
 * table's pages now (the planner's own scaling). Null while the table was
 * never analyzed: then only EXPLAIN knows.
 */
function tableEstimateSql(entity: EntityDescription): SQL {
  return sql`(select case when c.relpages > 0 and c.reltuples >= 0
      then round(c.reltuples / c.relpages * (pg_relation_size(c.oid) / current_setting('block_size')::bigint))::bigint
    end
    from pg_class c where c.oid = ${entity.table}::regclass)`;
}

function explainSql(entity: EntityDescription, query: Filtered, scope?: ListScope): SQL {
  return sql`explain (format json) select 1 from ${sql.identifier(entity.table)} ${sql.identifier(ROOT)}
      where ${whereSql(entity, query, scope)}`;
}

async function explainedRows(database: Database, explain: SQL): Promise<number> {
  const [plan] = await database.rows<{ 'QUERY PLAN': unknown }>(explain);
  const raw = plan?.['QUERY PLAN'];
  const json = jsonValue(raw) as [{ Plan: { 'Plan Rows': number } }];
  return Math.round(json[0].Plan['Plan Rows']);
}

/** The planner's estimate of the matching rows, from planning alone (nothing is read). */
export async function plannedRows(
  database: Database,
  entity: EntityDescription,
  query: Filtered,
  scope?: ListScope,
): Promise<number> {
  return explainedRows(database, explainSql(entity, query, scope));
}

/** How long a filter's estimate is reused, and how many filters each database keeps (decision 0039). */
export const ESTIMATE_TTL_MS = 10_000;
const MAX_KEPT_ESTIMATES = 1_000;

/** Filters' estimates per database, by their EXPLAIN's text and parameters, oldest first. */
const keptEstimates = new WeakMap<Database, Map<string, { rows: number; until: number }>>();
const dialect = new PgDialect();

/**
 * The planner's estimate as `plannedRows` gives it, reused for
 * `ESTIMATE_TTL_MS` by the same filter (same text, same parameters, same row
 * scope): a list paged, reloaded or opened by colleagues asks the planner once,
 * and its total then needs no second statement (decision 0039). Kept per
 * process: an estimate, which the planner itself only revises at the next
 * ANALYZE or as the table grows.
 */
class EstimateCache {
  private readonly kept: Map<string, { rows: number; until: number }>;
  private readonly key: string;
  private explain?: SQL;

  /** `key`, when given, names the filter and search with their values (ShapedPage's `estimateKey`): `explain` is then built only when asked. */
  constructor(
    private readonly database: Database,
    private readonly explainOf: () => SQL,
    key?: string,
  ) {
    let kept = keptEstimates.get(database);
    if (!kept) {
      kept = new Map();
      keptEstimates.set(database, kept);
    }
    this.kept = kept;
    if (key !== undefined) this.key = `shape\u0000${key}`;
    else {
      this.explain = explainOf();
      const { sql: text, params } = dialect.sqlToQuery(this.explain);
      this.key = `${text}\u0000${JSON.stringify(params)}`;
    }
  }

  /** The kept estimate, when it is still fresh. */
  get fresh(): number | undefined {
    const found = this.kept.get(this.key);
    if (!found) return undefined;
    if (found.until > Date.now()) return found.rows;
    this.kept.delete(this.key);
    return undefined;
  }

  /** Asks the planner and keeps its answer. */
  async ask(): Promise<number> {
    this.explain ??= this.explainOf();
    const rows = await explainedRows(this.database, this.explain);
    this.kept.delete(this.key);
    this.kept.set(this.key, { rows, until: Date.now() + ESTIMATE_TTL_MS });
    if (this.kept.size > MAX_KEPT_ESTIMATES) {
      const oldest = this.kept.keys().next().value;
      if (oldest !== undefined) this.kept.delete(oldest);
    }
    return rows;
  }
}

/** A ranked search the planner expects to match at most this many rows reads them all (decision 0043). */
export const FEW_MATCHES = 1_000;

/**
 * How a list's ranked search reads its page (`SearchPlan`): every match when
 * the planner expects few, else the bounded walk. The estimate is the one a
 * total of the same list uses, kept as long (`EstimateCache`): asked once,
 * then a search paged, reloaded or counted is one statement again.
 */
export async function searchPlan(
  database: Database,
  entity: EntityDescription,
  query: ListQuery,
  scope?: ListScope,
  estimateKey?: string,
): Promise<SearchPlan> {
  if (!ranked(entity, query)) return 'walk';
  const estimates = new EstimateCache(database, () => explainSql(entity, query, scope), estimateKey);
  return (estimates.fresh ?? (await estimates.ask())) <= FEW_MATCHES ? 'fewMatches' : 'walk';
}

/** What a statement's total columns hold; bigint arrives as text on node-postgres. */
interface TotalColumns {
  total: number | string | null;
  exact: boolean | null;
}

/**
 * The total's columns as one statement can compute them, or undefined when
 * it needs the planner first (a filtered `planned` or `estimated` count).
 * `estimated` over the whole table decides inside the statement: the count's
 * subquery runs only in the branch that answers it. Its total is null when
 * the table was never analyzed, and the caller asks the planner.
 */
function totalColumnsSql(
  entity: EntityDescription,
  query: Filtered,
  mode: CountMode,
  scope?: ListScope,
): SQL | undefined {
  if (mode === 'exact') return sql`${countSql(entity, query, scope)} as total, true as exact`;
  if (!wholeTable(query, scope)) return undefined;
  if (mode === 'planned') return sql`${tableEstimateSql(entity)} as total, false as exact`;
  return sql`case when e.n is null then null when e.n > ${ESTIMATED_COUNT_THRESHOLD} then e.n
      else ${countSql(entity, query, scope)} end as total,
    e.n <= ${ESTIMATED_COUNT_THRESHOLD} as exact
    from (select ${tableEstimateSql(entity)} as n) e`;
}

function totalOf(columns: TotalColumns | undefined): CountedTotal | undefined {
  if (!columns || columns.total === null || columns.total === undefined) return undefined;
  return { total: Number(columns.total), totalExact: columns.exact === true };
}

/**
 * The total decided from the planner's estimate: `planned` answers it,
 * `estimated` counts (and answers the count) only when it is at most the
 * threshold. Nothing is counted that is not answered.
 */
async function totalFromPlan(
  database: Database,
  entity: EntityDescription,
  query: Filtered,
  mode: CountMode,
  scope?: ListScope,
  estimate?: Promise<number>,
): Promise<CountedTotal> {
  const planned = await (estimate ?? plannedRows(database, entity, query, scope));
  if (mode === 'planned' || (mode === 'estimated' && planned > ESTIMATED_COUNT_THRESHOLD)) {
    return { total: planned, totalExact: false };
  }
  const [counted] = await database.rows<{ total: number | string }>(
    sql`select ${countSql(entity, query, scope)} as total`,
  );
  return { total: Number(counted?.total ?? 0), totalExact: true };
}

/**
 * What a filtered `planned` or `estimated` total can be told from a kept
 * estimate (`EstimateCache`): the total itself when no count is needed
 * (`known`), or that the count must be exact (`mode` exact); the mode as asked
 * when nothing is kept (`estimates` then asks the planner).
 */
function fromKeptEstimate(
  database: Database,
  entity: EntityDescription,
  query: Filtered,
  mode: CountMode,
  scope?: ListScope,
  estimateKey?: string,
): { known?: CountedTotal; mode: CountMode; estimates?: EstimateCache } {
  if (mode === 'exact' || wholeTable(query, scope)) return { mode };
  const estimates = new EstimateCache(database, () => explainSql(entity, query, scope), estimateKey);
  const kept = estimates.fresh;
  if (kept === undefined) return { mode, estimates };
  if (mode === 'planned' || kept > ESTIMATED_COUNT_THRESHOLD)
    return { known: { total: kept, totalExact: false }, mode };
  return { mode: 'exact' };
}

/** The total of a list as `mode` asks, without a page (the home page's counts). */
export async function countRows(
  database: Database,
  entity: EntityDescription,
  query: Filtered,
  asked: CountMode,
  scope?: ListScope,
): Promise<CountedTotal> {
  const { known, mode, estimates } = fromKeptEstimate(database, entity, query, asked, scope);
  if (known) return known;
  const columns = totalColumnsSql(entity, query, mode, scope);
  if (columns) {
    const [found] = await database.rows<TotalColumns>(sql`select ${columns}`);
    const total = totalOf(found);
    if (total) return total;
  }
  return totalFromPlan(database, entity, query, mode, scope, estimates?.ask());
}

/**
 * A list's page statement compiled once per shape (CompiledTexts) and sent
 * as its text (`Database.textRows`), for a list without scope or with a
 * scope's shape: `key` names the shape (the scope's, the filter's fields and operators, whether and how it
 * searches, selection, joins, order, page size, how it pages), `values`
 * what each request binds (the scope's values, the filter's values, the
 * search's terms, the cursor's values, the offset), `build` makes the
 * statement from them. A whole table's total is part of its shape too; a
 * scoped, filtered or searched list's total binds them again, and that
 * statement is built each time.
 * `estimateKey` names the scope, filter and search with their values: the key of
 * their kept estimate (EstimateCache), so that the EXPLAIN is built only
 * when it is asked.
 */
export interface ShapedPage {
  texts: CompiledTexts;
  key: string;
  values: readonly unknown[];
  build: (values: readonly unknown[]) => SQL;
  estimateKey?: string;
}

/**
 * A page of a list with the total its query asks for (`query.count`), in
 * as few statements as the mode allows:
 * - none: the page alone;
 * - `exact`, and `planned`/`estimated` over a whole analyzed table: one
 *   statement, the page beside the total (a row with a null page row when
 *   the page is empty, so that the total still comes);
 * - `planned` or `estimated` filtered, with the filter's estimate kept from
 *   an earlier request (`EstimateCache`): the page alone when the estimate is
 *   the answer, else one statement with the exact count, as `exact`;
 * - `planned` filtered otherwise: the page and the planner's estimate side by side;
 * - `estimated` filtered otherwise: the page and the estimate side by side, then the
 *   count only when the estimate is at most the threshold.
 * `pageOptions` apply to the statement that reads the page (and its total, over a whole table).
 */
export async function pageWithTotal<R extends { row: string }>(
  database: Database,
  entity: EntityDescription,
  query: ListQuery,
  page: SQL | ShapedPage,
  scope?: ListScope,
  pageOptions?: RowsOptions,
): Promise<{ rows: R[] } & ListTotal> {
  const run = <T>(shape: string, statement: (page: SQL) => SQL): Promise<T[]> => {
    // A filtered list's count is planned for its values even when its page's plan is kept (decision 0049).
    const kept = shape === 'page' || wholeTable(query, scope);
    const options = kept ? pageOptions : undefined;
    if (!('build' in page)) return database.rows<T>(statement(page), undefined, options);
    // A filtered or searched list's total binds them again, outside the page: that statement is built each time.
    const bound =
      kept &&
      database.textRows &&
      page.texts.bind(`${page.key}\u0000${shape}`, page.values, (v) => statement(page.build(v)));
    return bound && database.textRows
      ? database.textRows<T>(bound.text, bound.params, options)
      : database.rows<T>(statement(page.build(page.values)), undefined, options);
  };
  const alone = (p: SQL) => p;
  const asked = query.count;
  if (!asked) return { rows: await run<R>('page', alone), total: null, totalExact: null };
  const estimateKey = 'build' in page ? page.estimateKey : undefined;
  const { known, mode, estimates } = fromKeptEstimate(database, entity, query, asked, scope, estimateKey);
  if (known) return { rows: await run<R>('page', alone), ...known };
  const columns = totalColumnsSql(entity, query, mode, scope);
  if (!columns) {
    const estimate = estimates ? estimates.ask() : plannedRows(database, entity, query, scope);
    // Heard now, so that a failing page does not leave it unhandled; awaited below.
    estimate.catch(() => undefined);
    const rows = await run<R>('page', alone);
    return { rows, ...(await totalFromPlan(database, entity, query, mode, scope, estimate)) };
  }
  const found = await run<R & TotalColumns>(
    `total ${mode}`,
    (p) => sql`select p.*, c.total, c.exact from (select ${columns}) c left join (${p}) p on true`,
  );
  const rows = found.filter((r) => r.row !== null);
  return { rows, ...(totalOf(found[0]) ?? (await totalFromPlan(database, entity, query, mode, scope))) };
}
