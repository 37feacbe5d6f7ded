import type { IndexLevel } from '@data-platform/shared/analytics/fund-metrics';
import {
  calendarDateSchema,
  computeAnswerSchema,
  type FundComparisonRow,
  fundComparisonAnswerSchema,
  fundComparisonQuerySchema,
  fundMetricsAnswerSchema,
  fundMetricsParamsSchema,
  fundMetricsQuerySchema,
  type PortfolioCurrency,
  portfolioAnswerSchema,
  portfolioQuerySchema,
} from '@data-platform/shared/analytics/fund-metrics-api';
import {
  type FundInput,
  fundAnalytics,
  latestDate,
  metricsAt,
  type NavStatement,
  navAt,
  quarterDates,
  quarterEndOf,
  type TypedFlow,
} from '@data-platform/shared/analytics/fund-series';
import { benchmarkIndexes, indexLevels } from '@data-platform/shared/entities/benchmark-indexes';
import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { contributionTypes } from '@data-platform/shared/entities/fund-cash-flows';
import { fundPerformances } from '@data-platform/shared/entities/fund-performances';
import { funds } from '@data-platform/shared/entities/funds';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assertMayRead, readableScope } from '../access/reading.ts';
import type { Actor } from '../auth/actor.ts';
import { recordChangeInsertSql } from '../auth/audit.ts';
import { type Limiter, take } from '../auth/throttle.ts';
import { currentDescription } from '../crud/custom-fields.ts';
import { type HistoryInsert, historyInsertSql } from '../crud/history-writes.ts';
import { selectionSql } from '../crud/list-compiler.ts';
import { deleteRecordWithin } from '../crud/records.ts';
import { pgArrayLiteral, rowJson } from '../crud/sql-fragments.ts';
import { type Database, jsonValue } from '../db/client.ts';
import { columnName } from '../db/columns.ts';
import { invalid, notFound, tooLarge, tooMany } from '../domain/errors.ts';
import { errorBodySchema } from '../http/errors.ts';
import { readerFor } from '../http/read-after.ts';
import { MAX_INDEX_LEVELS } from './analytics.ts';

/**
 * Cash flows one fund's metrics compute over: each quarter of the series solves up to four rates over them
 * (measured on 2 loaded cores, load 17: 200 flows over 40 quarters 2.9 s, with an index 8.6 s; 2,000 flows
 * 9.6 s and 23 s), so a fund beyond this answers 413 rather than hold the thread.
 */
export const MAX_FUND_FLOWS = 2_000;
/** Cash flows the comparison and the portfolio read across funds, in one request. */
export const MAX_PORTFOLIO_FLOWS = 200_000;

/**
 * Computations one user may ask for per minute, over the calculator and these
 * routes together: each one solves rates over up to 10,000 flows on the
 * server's one thread, so a loop of them from one account would hold it.
 */
export const analyticsLimiter: Limiter = { name: 'analyticsByUser', limit: 60, windowMs: 60_000 };

/** 429 once the caller has asked for `analyticsLimiter.limit` computations within its window. */
export async function throttleAnalytics(database: Database, request: FastifyRequest): Promise<void> {
  const key = request.actor.userId === null ? `ip:${request.ip}` : `user:${request.actor.userId}`;
  const wait = await take(database, [[analyticsLimiter, key]]);
  if (wait > 0) throw tooMany(wait);
}

const fundsTable = sql.identifier(funds.table);

/** The fund ids the actor may read, as a subquery (every fund for a reader of funds: they have no row limits today). */
function readableFunds(actor: Actor): SQL {
  const scope = readableScope(funds, actor);
  return sql`(select t.id from ${fundsTable} t${scope ? sql` where ${scope.where}` : sql``})`;
}

interface FundRow {
  id: number;
  name: string | null;
  currency: string | null;
  committed: number | null;
  vintageYear: number | null;
  strategy: string | null;
  size: number | null;
}

const fundColumns = sql`f.id::int as "id", f.name, f.currency,
  coalesce(f.final_size, f.target_size)::float8 as "committed", f.vintage_year::int as "vintageYear",
  f.strategy, coalesce(f.final_size, f.target_size)::float8 as "size"`;

interface FlowRow {
  fundId: number;
  id: number;
  date: string;
  type: string;
  amount: number;
  /** In the fund's currency (or in none). */
  same: boolean;
}

/** The cash flows of the funds `fundIds` (up to `asOf`), by fund, date and id: at most `limit` + 1. */
function flowRowsSql(fundIds: SQL, limit: number, asOf?: string): SQL {
  const until = asOf ? sql` and c.date <= ${asOf}::date` : sql``;
  return sql`select c.fund_id::int as "fundId", c.id::int as id, c.date::text as date, c.type,
      c.amount::float8 as amount, (c.amount_currency is null or c.amount_currency = f.currency) as same
    from fund_cash_flows c join ${fundsTable} f on f.id = c.fund_id
    where c.fund_id in ${fundIds}${until}
    order by c.fund_id, c.date, c.id
    limit ${limit + 1}`;
}

/** Flows in their fund's currency, per fund in date order; and the dates of those in another. 413 beyond `limit`. */
function groupFlows(
  rows: readonly FlowRow[],
  limit: number,
): { flows: Map<number, TypedFlow[]>; other: Map<number, string[]> } {
  if (rows.length > limit) {
    throw tooLarge(`More than ${limit} cash flows to compute over in one request`, {
      flows: `At most ${limit} cash flows`,
    });
  }
  const flows = new Map<number, TypedFlow[]>();
  const other = new Map<number, string[]>();
  for (const row of rows) {
    if (!row.same) {
      other.set(row.fundId, [...(other.get(row.fundId) ?? []), row.date]);
      continue;
    }
    const list = flows.get(row.fundId) ?? [];
    list.push({ date: row.date, type: row.type, amount: Number(row.amount) });
    flows.set(row.fundId, list);
  }
  return { flows, other };
}

async function flowsOf(database: Database, fundIds: SQL, limit: number, asOf?: string) {
  return groupFlows(await database.rows<FlowRow>(flowRowsSql(fundIds, limit, asOf)), limit);
}

/** NAV statements (performance records with a NAV) of the funds `fundIds`, by fund and date. */
function statementRowsSql(fundIds: SQL): SQL {
  return sql`select p.fund_id::int as "fundId", p.id::int as id, p.as_of_date::text as date, p.nav::float8 as nav,
      p.source
    from ${sql.identifier(fundPerformances.table)} p
    where p.fund_id in ${fundIds} and p.nav is not null
    order by p.fund_id, p.as_of_date`;
}

function groupStatements(rows: readonly (NavStatement & { fundId: number })[]): Map<number, NavStatement[]> {
  const statements = new Map<number, NavStatement[]>();
  for (const row of rows) {
    const list = statements.get(row.fundId) ?? [];
    list.push({ id: row.id, date: row.date, nav: Number(row.nav), source: row.source });
    statements.set(row.fundId, list);
  }
  return statements;
}

async function statementsOf(database: Database, fundIds: SQL): Promise<Map<number, NavStatement[]>> {
  return groupStatements(await database.rows<NavStatement & { fundId: number }>(statementRowsSql(fundIds)));
}

/**
 * One fund the actor may read, with its cash flows (at most MAX_FUND_FLOWS, 413 beyond) and NAV statements, in
 * one statement: the flows and the statements are json_agg sub-selects of the fund's row. 404 when the actor may
 * not read the fund.
 */
async function oneFund(
  database: Database,
  actor: Actor,
  id: number,
): Promise<{ fund: FundRow; input: FundInput; otherCurrency: string[] }> {
  const ids = sql`(${id})`;
  const [row] = await database.rows<
    FundRow & { flows: FlowRow[] | string; statements: (NavStatement & { fundId: number })[] | string }
  >(
    sql`select ${fundColumns},
        (select coalesce(json_agg(x order by x."fundId", x.date, x.id), '[]')
          from (${flowRowsSql(ids, MAX_FUND_FLOWS)}) x) as flows,
        (select coalesce(json_agg(x order by x."fundId", x.date), '[]') from (${statementRowsSql(ids)}) x) as statements
      from ${fundsTable} f where f.id = ${id} and f.id in ${readableFunds(actor)}`,
  );
  if (!row) throw notFound(`Fund ${id}`);
  const { flows, statements, ...fund } = row;
  const grouped = groupFlows(jsonValue(flows), MAX_FUND_FLOWS);
  return {
    fund,
    input: {
      flows: grouped.flows.get(id) ?? [],
      statements: groupStatements(jsonValue(statements)).get(id) ?? [],
      committed: fund.committed === null ? null : Number(fund.committed),
    },
    otherCurrency: grouped.other.get(id) ?? [],
  };
}

const today = () => new Date().toISOString().slice(0, 10);

/**
 * GET /funds/{id}/metrics: reads the fund with its flows and NAV statements (one statement), with `index` the
 * index and its levels (one more), then computes.
 */
async function fundMetricsAnswer(
  database: Database,
  actor: Actor,
  id: number,
  query: z.infer<typeof fundMetricsQuerySchema>,
): Promise<z.infer<typeof fundMetricsAnswerSchema>> {
  const { fund, input, otherCurrency } = await oneFund(database, actor, id);
  const asOf = query.asOf ?? latestDate(input) ?? today();
  let index: z.infer<typeof fundMetricsAnswerSchema>['index'] = null;
  if (query.index !== undefined) {
    assertMayRead(actor, benchmarkIndexes.name);
    assertMayRead(actor, indexLevels.name);
    // The levels the metrics can use: from the last on or before the first flow to the as-of date, and the
    // first after it, so that an index starting later is named as not covering rather than missing. The index
    // and its levels in one statement (the levels a json_agg sub-select of the index's row).
    const first = input.flows[0]?.date ?? asOf;
    const levelsTable = sql.identifier(indexLevels.table);
    const [found] = await database.rows<{
      id: number;
      name: string;
      currency: string | null;
      levels: IndexLevel[] | string;
    }>(
      sql`select i.id::int as id, i.name, i.currency,
          (select coalesce(json_agg(l order by l.date), '[]') from (select date::text as date, level::float8 as level
            from ${levelsTable}
            where index_id = i.id
              and (date <= ${asOf}::date
                or date = (select min(date) from ${levelsTable} where index_id = i.id and date > ${asOf}::date))
              and date >= coalesce((select max(date) from ${levelsTable}
                where index_id = i.id and date <= ${first}::date), ${first}::date)
            order by date
            limit ${MAX_INDEX_LEVELS + 1}) l) as levels
        from ${sql.identifier(benchmarkIndexes.table)} i where i.id = ${query.index}`,
    );
    if (!found) throw invalid({ index: `No benchmark index ${query.index}` });
    const { levels: levelsJson, ...named } = found;
    index = named;
    const levels = jsonValue(levelsJson);
    // The calculator's own bound on a series (each level is read into memory and walked per quarter).
    if (levels.length > MAX_INDEX_LEVELS) {
      throw tooLarge(`More than ${MAX_INDEX_LEVELS} index levels over the fund's life`, {
        index: `At most ${MAX_INDEX_LEVELS} levels from the first cash flow to the as-of date`,
      });
    }
    input.index = levels.map((level) => ({ date: level.date, level: Number(level.level) }));
  }
  const otherCurrencyFlows = otherCurrency.filter((date) => date <= asOf).length;
  const analytics = fundAnalytics(input, asOf);
  return {
    fundId: fund.id,
    name: fund.name,
    asOf,
    currency: fund.currency,
    committed: input.committed,
    index,
    otherCurrencyFlows,
    ...analytics,
  };
}

/** Quartile by TVPI among funds of the same vintage year and strategy (1: top quarter). */
function withQuartiles(rows: Omit<FundComparisonRow, 'quartile'>[]): FundComparisonRow[] {
  const groups = new Map<string, { id: number; tvpi: number }[]>();
  for (const row of rows) {
    if (row.vintageYear === null || row.strategy === null || row.tvpi.value === null) continue;
    const key = `${row.vintageYear}\u0000${row.strategy}`;
    const list = groups.get(key) ?? [];
    list.push({ id: row.id, tvpi: row.tvpi.value });
    groups.set(key, list);
  }
  const ranks = new Map<number, { value: number | null; peers: number }>();
  for (const list of groups.values()) {
    list.sort((a, b) => b.tvpi - a.tvpi || a.id - b.id);
    list.forEach(({ id }, i) => {
      ranks.set(id, { value: list.length < 2 ? null : Math.floor((i * 4) / list.length) + 1, peers: list.length });
    });
  }
  return rows.map((row) => {
    let quartile: FundComparisonRow['quartile'];
    if (row.vintageYear === null) quartile = { value: null, peers: 0, reason: 'no_vintage' };
    else if (row.strategy === null) quartile = { value: null, peers: 0, reason: 'no_strategy' };
    else if (row.tvpi.value === null) quartile = { value: null, peers: 0, reason: 'no_tvpi' };
    else {
      const rank = ranks.get(row.id) ?? { value: null, peers: 1 };
      quartile = rank.value === null ? { ...rank, reason: 'no_peers' } : rank;
    }
    return { ...row, quartile };
  });
}

async function comparison(database: Database, actor: Actor, asOf: string | undefined) {
  const ids = readableFunds(actor);
  const fundRows = await database.rows<FundRow>(
    sql`select ${fundColumns} from ${fundsTable} f where f.id in ${ids} order by f.name, f.id`,
  );
  const [{ flows }, statements] = await Promise.all([
    flowsOf(database, ids, MAX_PORTFOLIO_FLOWS, asOf),
    statementsOf(database, ids),
  ]);
  const rows = fundRows.map((fund) => {
    const input: FundInput = {
      flows: flows.get(fund.id) ?? [],
      statements: statements.get(fund.id) ?? [],
      committed: fund.committed === null ? null : Number(fund.committed),
    };
    const at = asOf ?? (input.flows.length > 0 ? latestDate(input) : undefined);
    const base = {
      id: fund.id,
      name: fund.name,
      vintageYear: fund.vintageYear,
      strategy: fund.strategy,
      size: fund.size === null ? null : Number(fund.size),
      currency: fund.currency,
    };
    if (!at || input.flows.length === 0) {
      const none = { value: null, reason: 'no_flows', message: 'The fund has no cash flows' };
      return { ...base, asOf: null, tvpi: none, dpi: none, irr: { ...none, annualised: false, days: 0 } };
    }
    const { metrics } = metricsAt(input, at);
    return { ...base, asOf: at, tvpi: metrics.tvpi, dpi: metrics.dpi, irr: metrics.irr };
  });
  return { asOf: asOf ?? null, funds: withQuartiles(rows) };
}

async function portfolio(database: Database, actor: Actor, asOf: string) {
  const ids = readableFunds(actor);
  const fundRows = await database.rows<FundRow>(sql`select ${fundColumns} from ${fundsTable} f where f.id in ${ids}`);
  const [{ flows }, statements] = await Promise.all([
    flowsOf(database, ids, MAX_PORTFOLIO_FLOWS, asOf),
    statementsOf(database, ids),
  ]);
  const byCurrency = new Map<string, { fund: FundRow; flows: TypedFlow[]; statements: NavStatement[] }[]>();
  for (const fund of fundRows) {
    const fundFlows = flows.get(fund.id);
    if (!fundFlows || fundFlows.length === 0 || !fund.currency) continue;
    const list = byCurrency.get(fund.currency) ?? [];
    list.push({ fund, flows: fundFlows, statements: statements.get(fund.id) ?? [] });
    byCurrency.set(fund.currency, list);
  }
  const currencies: PortfolioCurrency[] = [];
  for (const [currency, members] of byCurrency) {
    const first = members.map((m) => (m.flows[0] as TypedFlow).date).sort()[0] ?? asOf;
    const series = quarterDates(first, asOf).map((date) => {
      const point = { date, committed: 0, paidIn: 0, distributed: 0, nav: 0 };
      for (const member of members) {
        if ((member.flows[0] as TypedFlow).date > date) continue;
        point.committed += Number(member.fund.committed ?? 0);
        for (const flow of member.flows) {
          if (flow.date > date) break;
          if (contributionTypes.has(flow.type)) point.paidIn += flow.amount;
          else point.distributed += flow.amount;
        }
        point.nav += navAt(member.flows, member.statements, date).nav;
      }
      return point;
    });
    const last = series.at(-1) ?? { committed: 0, paidIn: 0, distributed: 0, nav: 0 };
    currencies.push({
      currency,
      funds: members.length,
      committed: last.committed,
      paidIn: last.paidIn,
      distributed: last.distributed,
      nav: last.nav,
      series,
    });
  }
  currencies.sort((a, b) => b.paidIn - a.paidIn || a.currency.localeCompare(b.currency));
  return { asOf, currencies };
}

const computeBodySchema = z
  .strictObject({
    through: calendarDateSchema
      .optional()
      .describe('Compute the quarter ends up to this date (default: today); never after today'),
  })
  .optional();

/** The fields the compute writes: a record it refreshes changes these and only these (besides its bookkeeping). */
const computedFields = ['currency', 'committed', 'paidIn', 'distributed', 'nav', 'netIrr', 'notes', 'computedAt'];
/** The figures among them: a computed record is refreshed only when one of these differs (not `computedAt` alone). */
const figureFields = computedFields.filter((field) => field !== 'computedAt');

/**
 * The compute's one write statement: every quarter end's row inserted, or
 * refreshed where a computed record's figures differ (`rows`: values in the
 * order fund, date, then `computedFields`, then the writer twice; a record
 * whose figures are the same is not written, nor returned), with what any create
 * or update writes beside it (crud/records.ts): the history entries of the
 * rows created and of the rows refreshed (their old values read in `prior`,
 * the statement's snapshot being from before the write) and their audit
 * events, as data-modifying CTEs sharing one snapshot and one commit.
 */
function upsertPerformancesSql(entity: EntityDescription, fundId: number, rows: SQL[], actor: Actor, ip: string): SQL {
  const table = sql.identifier(entity.table);
  const columns = computedFields.map((field) => sql.identifier(columnName(field)));
  const excluded = computedFields.map((field) => sql`excluded.${sql.identifier(columnName(field))}`);
  const figures = (alias: string) =>
    sql.join(
      figureFields.map((field) => sql`${sql.identifier(alias)}.${sql.identifier(columnName(field))}`),
      sql`, `,
    );
  const history = (source: SQL, change: Pick<HistoryInsert, 'action' | 'changes' | 'prior'>) =>
    historyInsertSql(entity, source, { ...change, actorId: actor.userId }) ?? sql`select 1`;
  const audit = (source: SQL, type: 'recordCreated' | 'recordUpdated', fields?: string[]) =>
    recordChangeInsertSql({ type, actorId: actor.userId, ip, entity: entity.name, fields }, source);
  return sql`with prior as (select t.id, ${rowJson(entity, 't', computedFields)} as j from ${table} t
      where t.fund_id = ${fundId}),
    written as (insert into ${table} as t (fund_id, as_of_date, ${sql.join(columns, sql`, `)}, created_by_id, updated_by_id)
      values ${sql.join(rows, sql`, `)}
      on conflict (fund_id, as_of_date) do update set (${sql.join(columns, sql`, `)}, updated_at, updated_by_id, version)
        = (${sql.join(excluded, sql`, `)}, now(), excluded.updated_by_id, t.version + 1)
        where t.source = 'computed' and (${figures('t')}) is distinct from (${figures('excluded')})
      returning t.id, t.as_of_date::text as date, (t.xmax = 0) as inserted, ${selectionSql(entity, { join: [] })} as j),
    created as (select id, j from written where inserted),
    refreshed as (select id, j from written where not inserted),
    created_history as (${history(sql`created`, { action: 'created', changes: 'created' })}),
    refreshed_history as (${history(sql`refreshed`, { action: 'updated', changes: 'updated', prior: sql`prior` })}),
    created_audit as (${audit(sql`created`, 'recordCreated')}),
    refreshed_audit as (${audit(sql`refreshed`, 'recordUpdated', computedFields)})
    select id::int as id, date, inserted from written`;
}

/**
 * Computes the fund's quarter-end performance records from its cash flows:
 * one per quarter end from its first flow's to `through`, except where a
 * record entered by hand is (never overwritten); computed records outside
 * that span are removed. The NAV is the rule of the metrics (decision 0024),
 * the net IRR the XIRR in percent when the period is a year or more. Every
 * record created, refreshed or removed keeps its history entry and audit
 * event, in the compute's transaction, as the generic writes do.
 */
async function computePerformances(database: Database, actor: Actor, id: number, through: string, ip: string) {
  const [{ fund, input }, entity] = await Promise.all([
    oneFund(database, actor, id),
    // With its custom fields, so that the history entries keep their values too.
    currentDescription(database, fundPerformances),
  ]);
  if (!fund.currency) throw invalid({ currency: 'The fund has no currency' }, 'The fund has no currency');
  const first = input.flows[0]?.date;
  const dates = first && first <= through ? quarterDates(first, through).filter((d) => d === quarterEndOf(d)) : [];
  const table = sql.identifier(entity.table);
  return database.db.transaction(async (tx) => {
    const existing = await database.rows<{ id: number; date: string; source: string }>(
      sql`select id::int as id, as_of_date::text as date, source from ${table} where fund_id = ${id} for update`,
      tx,
    );
    const byDate = new Map(existing.map((row) => [row.date, row]));
    const wanted = new Set(dates);
    let keptManual = 0;
    const rows: SQL[] = [];
    for (const date of dates) {
      if (byDate.get(date)?.source === 'manual') {
        keptManual++;
        continue;
      }
      const { metrics } = metricsAt(input, date);
      const irr = metrics.irr.value !== null && metrics.irr.annualised ? metrics.irr.value * 100 : null;
      const netIrr = irr === null || irr < -100 || irr > 10_000 ? null : Math.round(irr * 10_000) / 10_000;
      const note = metrics.irr.annualised
        ? null
        : 'Net IRR left empty: under a year of flows, a rate is not annualised (GIPS)';
      // In the order of computedFields.
      rows.push(sql`(${id}::bigint, ${date}::date, ${fund.currency}, ${input.committed}::numeric,
        ${metrics.paidIn.value}::numeric, ${metrics.distributed.value}::numeric, ${metrics.nav.value}::numeric,
        ${netIrr}::numeric, ${note}::text, now(), ${actor.userId}::bigint, ${actor.userId}::bigint)`);
    }
    // Every quarter end in one statement: new ones inserted, computed ones refreshed (the hand-entered ones,
    // locked above, are not in the list; one entered by hand since is left as it is).
    const written =
      rows.length === 0
        ? []
        : await database.rows<{ id: number; date: string; inserted: boolean }>(
            upsertPerformancesSql(entity, id, rows, actor, ip),
            tx,
          );
    const created = written.filter((row) => row.inserted).length;
    const updated = written.length - created;
    // The computed records the statement left alone: their figures were already these.
    const writtenDates = new Set(written.map((row) => row.date));
    const unchanged = existing.filter(
      (row) => row.source === 'computed' && wanted.has(row.date) && !writtenDates.has(row.date),
    );
    const records = [...written, ...unchanged]
      .map((row) => ({ id: Number(row.id), asOfDate: row.date }))
      .sort((x, y) => x.asOfDate.localeCompare(y.asOfDate));
    const stale = existing.filter((row) => row.source === 'computed' && !wanted.has(row.date)).map((row) => row.id);
    // Removed as any delete removes a record: its notes, files and tasks with it, its entry keeping a snapshot
    // for a restore (its files' bytes stay with it, so there are none to remove once this commits).
    for (const staleId of stale) await deleteRecordWithin(database, entity, staleId, undefined, tx, actor.userId);
    if (stale.length > 0) {
      await database.rows(
        recordChangeInsertSql(
          { type: 'recordDeleted', actorId: actor.userId, ip, entity: entity.name },
          sql`(select unnest(${pgArrayLiteral(stale)}::bigint[]) as id)`,
        ),
        tx,
      );
    }
    return {
      fundId: id,
      through: dates.at(-1) ?? through,
      created,
      updated,
      unchanged: unchanged.length,
      removed: stale.length,
      keptManual,
      records,
    };
  });
}

const readsFundData = [
  { resource: funds.name, action: 'read' },
  { resource: 'fundCashFlows', action: 'read' },
  { resource: fundPerformances.name, action: 'read' },
] as const;

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  413: errorBodySchema,
  429: errorBodySchema,
};

/**
 * GET /funds/{id}/metrics, GET /funds/comparison, GET /analytics/portfolio:
 * they only read, from a read replica once it holds the caller's own writes
 * (`readerFor`); the computation they are counted against, on the primary.
 */
export function registerFundAnalyticsRoutes(app: FastifyInstance, database: Database): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/api/v1/funds/comparison', {
    config: { access: [...readsFundData] },
    schema: {
      tags: ['Analytics'],
      summary: 'Compare funds: TVPI, DPI, net IRR and quartile within vintage year and strategy',
      description: `Every fund the caller may read, with its multiples and net IRR at the as-of date (each fund at its latest NAV or flow without one), computed from its cash flows and NAV statements as GET /funds/{id}/metrics does. The quartile ranks TVPI among the funds of the same vintage year and strategy (1: top quarter; null with a reason without a vintage, a strategy, a TVPI or another peer). Needs funds, fund cash flows and fund performance read rights; at most ${MAX_PORTFOLIO_FLOWS} flows in all (413 beyond); counted against the caller's ${analyticsLimiter.limit} computations a minute (429).`,
      querystring: fundComparisonQuerySchema,
      response: { 200: fundComparisonAnswerSchema, ...errors },
    },
    handler: async (request) => {
      await throttleAnalytics(database, request);
      return comparison(await readerFor(database, request), request.actor, request.query.asOf);
    },
  });

  api.get('/api/v1/funds/:id/metrics', {
    config: { access: [...readsFundData] },
    schema: {
      tags: ['Analytics'],
      summary: 'A fund’s metrics at a date from its cash flows and NAV, with its quarterly series',
      description: `The calculator's metrics (POST /analytics/fund-metrics) over the fund's cash flows in its currency up to the as-of date, the NAV being the latest hand-entered fund performance record on or before it rolled forward by the flows since, or the NAV at cost without one (navSource says which, decision 0024); PIC is paid-in over the fund's final (else target) size. \`series\` has one point per quarter end from the first flow to the as-of date. With \`index\`, the PME metrics against that benchmark index (needs benchmark index and index level read rights). 404 for a fund the caller cannot read; at most ${MAX_FUND_FLOWS} flows (413); counted against the caller's ${analyticsLimiter.limit} computations a minute (429).`,
      params: fundMetricsParamsSchema,
      querystring: fundMetricsQuerySchema,
      response: { 200: fundMetricsAnswerSchema, ...errors, 404: errorBodySchema },
    },
    handler: async (request) => {
      await throttleAnalytics(database, request);
      return fundMetricsAnswer(await readerFor(database, request), request.actor, request.params.id, request.query);
    },
  });

  api.post('/api/v1/funds/:id/performances/compute', {
    config: {
      access: [
        ...readsFundData,
        { resource: fundPerformances.name, action: 'create' },
        { resource: fundPerformances.name, action: 'update' },
        { resource: fundPerformances.name, action: 'delete' },
      ],
    },
    schema: {
      tags: ['Analytics'],
      summary: 'Compute (or refresh) a fund’s quarter-end performance records from its cash flows',
      description: `One fund performance record per quarter end from the fund's first cash flow to \`through\` (default today): paid-in, distributed, the NAV (the latest hand-entered NAV rolled forward, or at cost), the net IRR (XIRR, in percent, left empty under a year), the fund's currency and commitment; \`computedAt\` set, so \`source\` reads computed. A computed record whose figures come out the same is left as it is (counted in \`unchanged\`, no history entry). A quarter end with a record entered by hand is left alone; computed records outside the span are removed. Needs fund, cash flow and performance read rights and performance create, update and delete rights; 404 for a fund the caller cannot read; counted against the caller's ${analyticsLimiter.limit} computations a minute (429).`,
      params: fundMetricsParamsSchema,
      body: computeBodySchema,
      response: { 200: computeAnswerSchema, ...errors, 404: errorBodySchema },
    },
    handler: async (request) => {
      await throttleAnalytics(database, request);
      const asked = request.body?.through;
      // Never past today: a quarter end to come has no flows yet.
      const through = asked && asked < today() ? asked : today();
      return computePerformances(database, request.actor, request.params.id, through, request.ip);
    },
  });

  api.get('/api/v1/analytics/portfolio', {
    config: { access: [...readsFundData] },
    schema: {
      tags: ['Analytics'],
      summary: 'Portfolio totals per currency: committed, paid-in, distributed, NAV, and their quarterly series',
      description: `Over the funds the caller may read that have cash flows, per fund currency (never added across currencies): committed (final, else target size), paid-in and distributed from the flows, NAV by the rule of GET /funds/{id}/metrics, at each quarter end from the first flow to the as-of date (default today). At most ${MAX_PORTFOLIO_FLOWS} flows (413); counted against the caller's ${analyticsLimiter.limit} computations a minute (429).`,
      querystring: portfolioQuerySchema,
      response: { 200: portfolioAnswerSchema, ...errors },
    },
    handler: async (request) => {
      await throttleAnalytics(database, request);
      return portfolio(await readerFor(database, request), request.actor, request.query.asOf ?? today());
    },
  });
}
