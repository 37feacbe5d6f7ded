import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { fieldTypeModule } from '@data-platform/shared/fields/field-types';
import { totalledPerCurrency } from '@data-platform/shared/query/aggregate-fields';
import type { AggregatesQuery, AggregatesResponse, FieldTotals, Stats } from '@data-platform/shared/query/aggregates';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { CUSTOM_COLUMN, currencyColumnName } from '../db/columns.ts';
import { type ListScope, ROOT, whereSql } from './list-compiler.ts';
import { column, fieldOf, nameLiteral, valueExpr } from './sql-fragments.ts';

/**
 * The totals of a filtered list in one statement: the rows the list's own
 * WHERE (whereSql: scope, filters, search) keeps, aggregated over grouping
 * sets — the whole list, each option of the group-by picklist, and for each
 * field totalled per currency, the same per currency. Every aggregate is
 * Postgres's own over numeric values, returned as text: exact.
 */

/** One totalled field: its value as numeric, and the expression of its currency when it has one. */
interface Measure {
  name: string;
  value: SQL;
  currency?: SQL;
}

/**
 * A custom field's number as numeric, or null when the stored JSON is not a
 * number (a value written before the field's type changed): never a failed cast.
 */
function customNumber(name: string, part?: string): SQL {
  const json = part
    ? sql`(${column(ROOT, CUSTOM_COLUMN)} -> ${nameLiteral(name)} -> ${nameLiteral(part)})`
    : sql`(${column(ROOT, CUSTOM_COLUMN)} -> ${nameLiteral(name)})`;
  return sql`(case when jsonb_typeof(${json}) = 'number' then (${json} #>> '{}')::numeric end)`;
}

function measureOf(entity: EntityDescription, name: string): Measure {
  const field = fieldOf(entity, name);
  const module = fieldTypeModule(field.type);
  const perCurrency = totalledPerCurrency(field);
  if (field.custom) {
    const main = module.parts?.main;
    const currencyPart = module.parts?.extra[0];
    return {
      name,
      value: customNumber(name, main),
      currency:
        perCurrency && currencyPart
          ? sql`(${column(ROOT, CUSTOM_COLUMN)} -> ${nameLiteral(name)} ->> ${nameLiteral(currencyPart)})`
          : undefined,
    };
  }
  const value = sql`(${valueExpr(ROOT, name, field)})::numeric`;
  if (!perCurrency) return { name, value };
  const currency = field.currencyField
    ? sql`(${valueExpr(ROOT, field.currencyField, fieldOf(entity, field.currencyField))})::text`
    : column(ROOT, currencyColumnName(name));
  return { name, value, currency };
}

/** The group-by picklist's value as text (a custom one from its JSON). */
function groupExpr(entity: EntityDescription, name: string): SQL {
  return sql`(${valueExpr(ROOT, name, fieldOf(entity, name))})::text`;
}

/** Column aliases of the statement: generated, never from input. */
const v = (i: number) => `v${i}`;
const c = (i: number) => `c${i}`;
/** A column of the filtered rows' subquery. */
const r = (name: string) => column('r', name);

export function aggregatesSql(entity: EntityDescription, query: AggregatesQuery, scope?: ListScope): SQL {
  const measures = query.fields.map((name) => measureOf(entity, name));
  const inner: SQL[] = [sql`1 as ${sql.identifier('one')}`];
  if (query.groupBy) inner.push(sql`${groupExpr(entity, query.groupBy)} as ${sql.identifier('g')}`);
  measures.forEach((m, i) => {
    inner.push(sql`${m.value} as ${sql.identifier(v(i))}`);
    if (m.currency) inner.push(sql`${m.currency} as ${sql.identifier(c(i))}`);
  });
  const g = 'g';
  const sets: SQL[] = [sql`()`];
  if (query.groupBy) sets.push(sql`(${r(g)})`);
  const outer: SQL[] = [sql`count(*)::text as n`];
  if (query.groupBy) outer.push(sql`grouping(${r(g)}) as gg`, sql`${r(g)} as g`);
  measures.forEach((m, i) => {
    const value = r(v(i));
    outer.push(
      sql`count(${value})::text as ${sql.identifier(`n${i}`)}`,
      sql`sum(${value})::text as ${sql.identifier(`s${i}`)}`,
      sql`trim_scale(avg(${value}))::text as ${sql.identifier(`a${i}`)}`,
      sql`min(${value})::text as ${sql.identifier(`lo${i}`)}`,
      sql`max(${value})::text as ${sql.identifier(`hi${i}`)}`,
    );
    if (m.currency) {
      outer.push(sql`grouping(${r(c(i))}) as ${sql.identifier(`gc${i}`)}`, sql`${r(c(i))} as ${sql.identifier(c(i))}`);
      sets.push(sql`(${r(c(i))})`);
      if (query.groupBy) sets.push(sql`(${r(g)}, ${r(c(i))})`);
    }
  });
  const table = sql`${sql.identifier(entity.table)} ${sql.identifier(ROOT)}`;
  return sql`select ${sql.join(outer, sql`, `)}
    from (select ${sql.join(inner, sql`, `)} from ${table} where ${whereSql(entity, query, scope)}) r
    group by grouping sets (${sql.join(sets, sql`, `)})`;
}

type ResultRow = Record<string, string | number | null>;

function statsOf(row: ResultRow, i: number): Stats {
  const text = (key: string) => (row[key] === null || row[key] === undefined ? null : String(row[key]));
  return {
    count: Number(row[`n${i}`] ?? 0),
    sum: text(`s${i}`),
    avg: text(`a${i}`),
    min: text(`lo${i}`),
    max: text(`hi${i}`),
  };
}

/** True when the row is the aggregate of every currency of measure i (or the measure has none). */
const allCurrencies = (row: ResultRow, i: number, measure: Measure) => !measure.currency || Number(row[`gc${i}`]) === 1;
/** True when the row aggregates over every currency of every measure. */
const acrossCurrencies = (row: ResultRow, measures: Measure[]) => measures.every((m, i) => allCurrencies(row, i, m));

function totalsOf(rows: ResultRow[], measures: Measure[]) {
  const base = rows.find((row) => acrossCurrencies(row, measures));
  const totals: Record<string, FieldTotals> = {};
  measures.forEach((m, i) => {
    const stats = base ? statsOf(base, i) : { count: 0, sum: null, avg: null, min: null, max: null };
    if (!m.currency) {
      totals[m.name] = { kind: 'number', ...stats };
      return;
    }
    const currencies = rows
      .filter((row) => !allCurrencies(row, i, m) && Number(row[`n${i}`]) > 0)
      .map((row) => ({ currency: (row[`c${i}`] as string | null) ?? null, ...statsOf(row, i) }))
      .sort((a, b) => (a.currency ?? '\uffff').localeCompare(b.currency ?? '\uffff'));
    totals[m.name] = { kind: 'money', count: stats.count, currencies };
  });
  return { count: Number(base?.n ?? 0), fields: totals };
}

/** Groups in the picklist's order; values no option has (any more) after the options; the empty group last. */
function groupOrder(options: readonly string[]) {
  const position = (value: string | null) => {
    if (value === null) return options.length + 2;
    const at = options.indexOf(value);
    return at >= 0 ? at : options.length + 1;
  };
  return (a: { value: string | null }, b: { value: string | null }) =>
    position(a.value) - position(b.value) || String(a.value).localeCompare(String(b.value));
}

/** The totals of the list `query` describes, within `scope` (the reader's rows), in one statement. */
export async function aggregateRows(
  database: Database,
  entity: EntityDescription,
  query: AggregatesQuery,
  scope?: ListScope,
): Promise<AggregatesResponse> {
  const measures = query.fields.map((name) => measureOf(entity, name));
  const rows = await database.rows<ResultRow>(aggregatesSql(entity, query, scope));
  const whole = rows.filter((row) => !query.groupBy || Number(row.gg) === 1);
  const answer: AggregatesResponse = { ...totalsOf(whole, measures), groupBy: query.groupBy ?? null, groups: null };
  if (!query.groupBy) return answer;
  const byValue = new Map<string | null, ResultRow[]>();
  for (const row of rows) {
    if (Number(row.gg) !== 0) continue;
    const value = (row.g as string | null) ?? null;
    byValue.set(value, [...(byValue.get(value) ?? []), row]);
  }
  const options = fieldOf(entity, query.groupBy).options ?? [];
  answer.groups = [...byValue.entries()]
    .map(([value, groupRows]) => ({ value, ...totalsOf(groupRows, measures) }))
    .sort(groupOrder(options));
  return answer;
}
