import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import { type FieldDescription, fieldTypeModule } from '@data-platform/shared/fields/field-types';
import type { ListQuery } from '@data-platform/shared/query/list-query';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { type ListScope, limitedRowsWhere, listSql, orderKeys, ROOT, whereSql } from '../crud/list-compiler.ts';
import { column, nameLiteral, valueExpr } from '../crud/sql-fragments.ts';
import { CUSTOM_COLUMN, columnName, currencyColumnName } from '../db/columns.ts';

/**
 * The cells of a CSV export as SQL text expressions, so that PostgreSQL
 * writes the file itself (`COPY (...) TO STDOUT WITH (FORMAT csv)`) and
 * Node only passes the bytes on. Each expression gives the text the
 * JSON-based export (`exportColumns` in export.ts) writes for the same value:
 * numbers as JavaScript prints them (`2500000.50` → `2500000.5`), dates as
 * their JSON text, lists joined with "; ", empty text as nothing, and text a
 * spreadsheet would run as a formula behind a `'` (see `csvSafe`).
 */

/**
 * `csvSafe`'s pattern (csv-formulas.ts) in PostgreSQL's regular expressions:
 * any number of `'` (`\u0027`), then a tab or carriage return, or `= + - @`
 * (or their full-width forms) after JavaScript's `\s` characters. A literal:
 * no `$`, no quote, so that inlining parameters (see `inlineParams`) never
 * mistakes it for one.
 */
const FORMULA_START =
  "'^\\u0027*([\\t\\r]|[\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]*[=+@\\uff1d\\uff0b\\uff0d\\uff20-])'";

/**
 * The code points a text `csvSafe` escapes can start with (its `'`, the tab,
 * the carriage return, JavaScript's spaces, and the formula characters): a
 * cheap test that spares the regular expression nearly every cell.
 */
const FORMULA_FIRST = [
  39, 9, 10, 11, 12, 13, 32, 160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8232, 8233,
  8239, 8287, 12288, 65279, 61, 43, 45, 64, 65309, 65291, 65293, 65312,
].join(', ');

/**
 * A text cell. For CSV as `csvSafe` writes it: empty as nothing, a formula
 * behind a `'` (`text` must be cheap to repeat). For XLSX as it is (its
 * cells are typed: text is never a formula), a list's empty join as no cell.
 */
function textCell(text: SQL, target: CellTarget, list = false): SQL {
  if (target === 'xlsx') return list ? sql`nullif(${text}, '')` : text;
  const value = sql`nullif(${text}, '')`;
  return sql`(case when ascii(${value}) in (${sql.raw(FORMULA_FIRST)}) and ${value} ~ ${sql.raw(FORMULA_START)} then '''' || ${value} else ${value} end)`;
}

/** A number as JavaScript prints the JSON number: no trailing zeros of a numeric's scale. */
function numberText(value: SQL, pgType: string): SQL {
  return pgType === 'numeric' ? sql`trim_scale(${value})::text` : sql`(${value})::text`;
}

/**
 * The text cells of one field of the row `alias` (money gives two: the
 * amount, then the currency), as `fieldTypeModule(type).exportCells` gives
 * them from the row's JSON.
 */
export function fieldCellsSql(alias: string, name: string, field: FieldDescription, target: CellTarget): SQL[] {
  const module = fieldTypeModule(field.type);
  const { storage, json } = module;
  if (field.custom) {
    const value = sql`(${column(alias, CUSTOM_COLUMN)} -> ${nameLiteral(name)})`;
    if (storage.currencyColumn) {
      return [
        sql`trim_scale((${value} ->> 'amount')::numeric)::text`,
        textCell(sql`(${value} ->> 'currency')`, target),
      ];
    }
    if (storage.array) {
      return [
        sql`(select ${textCell(sql`string_agg(e.v, '; ' order by e.n)`, target, true)} from jsonb_array_elements_text(case when jsonb_typeof(${value}) = 'array' then ${value} end) with ordinality e(v, n))`,
      ];
    }
    const text = sql`(${column(alias, CUSTOM_COLUMN)} ->> ${nameLiteral(name)})`;
    if (json === 'number') return [sql`trim_scale(${text}::numeric)::text`];
    if (json === 'string') return [textCell(text, target)];
    return [text];
  }
  const value = column(alias, columnName(name));
  if (storage.currencyColumn) {
    const currency = column(alias, currencyColumnName(name));
    return [
      numberText(value, storage.pgType),
      sql`(case when ${value} is null then null else ${textCell(currency, target)} end)`,
    ];
  }
  if (storage.array) return [textCell(sql`array_to_string(${value}, '; ')`, target, true)];
  if (json === 'number') return [numberText(value, storage.pgType)];
  if (json === 'boolean') return [sql`(${value})::text`];
  // Dates and times as the row's JSON writes them (ISO 8601, whatever the session's DateStyle).
  if (storage.pgType === 'date' || storage.pgType === 'timestamptz') return [sql`(to_jsonb(${value}) #>> '{}')`];
  return [textCell(value, target)];
}

/** Which file a cell's text is for: CSV writes it as text, XLSX types it (see `ExportColumn.kind`). */
export type CellTarget = 'csv' | 'xlsx';

/** One cell: its text expression, and the join it reads from (a reference's record), if any. */
export interface CellSql {
  cell: SQL;
  join?: SQL;
}

/**
 * The cell naming the record a reference points at: its display field, from
 * a left join of the target (a join, not a subquery per row: 15 µs a row
 * less for each reference), keeping only a record the reader may see
 * (`limitedRows`, set by limitJoins).
 */
export function referenceCellSql(
  entity: EntityDescription,
  name: string,
  target: EntityDescription,
  alias: string,
  limitedRows: boolean,
  cellTarget: CellTarget,
): CellSql {
  const display = target.fields[target.display] as FieldDescription;
  const [cell] = fieldCellsSql(alias, target.display, display, cellTarget);
  const rows = limitedRows ? limitedRowsWhere(target) : undefined;
  const limit = rows
    ? sql` and ${column(alias, 'id')} in (select ${column(ROOT, 'id')} from ${sql.identifier(target.table)} ${sql.identifier(ROOT)} where ${rows})`
    : sql``;
  const fk = valueExpr(ROOT, name, allFields(entity)[name]);
  return {
    cell: cell as SQL,
    join: sql`left join ${sql.identifier(target.table)} ${sql.identifier(alias)} on ${column(alias, 'id')} = ${fk}${limit}`,
  };
}

/** The rows of the entity as `t`, with the joins the cells read. */
function fromSql(entity: EntityDescription, cells: readonly CellSql[]): SQL {
  const joins = cells.flatMap((c) => (c.join ? [c.join] : []));
  return sql`${sql.identifier(entity.table)} ${sql.identifier(ROOT)}${joins.length > 0 ? sql` ${sql.join(joins, sql` `)}` : sql``}`;
}

/** Every matching row's text cells, in the list's order: the statement `COPY` runs. */
export function exportCellsSql(
  entity: EntityDescription,
  query: ListQuery,
  scope: ListScope | undefined,
  cells: readonly CellSql[],
): SQL {
  const order = sql.join(
    orderKeys(entity, query).map((k) => sql`${k.expr} ${k.dir === 'desc' ? sql`desc` : sql`asc`}`),
    sql`, `,
  );
  return sql`select ${sql.join(
    cells.map((c) => c.cell),
    sql`, `,
  )} from ${fromSql(entity, cells)}
    where ${whereSql(entity, query, scope)} order by ${order}`;
}

/** One page of the list's ids (and the cursor after each), in its order: the keyset pages of the PGlite path. */
export function exportIdsSql(
  entity: EntityDescription,
  query: ListQuery,
  scope: ListScope | undefined,
  pageSize: number,
  after: unknown[] | undefined,
): SQL {
  return listSql(entity, { ...query, select: ['id'], join: [], page: 1, pageSize, cursor: undefined }, after, scope);
}

/** The text cells of the rows with these ids, in the order of the ids. */
export function exportCellsOfIdsSql(entity: EntityDescription, ids: readonly number[], cells: readonly CellSql[]): SQL {
  const list = `{${ids.map((id) => String(Math.trunc(id))).join(',')}}`;
  return sql`select ${sql.join(
    cells.map((c, i) => sql`${c.cell} as ${sql.identifier(`c${i}`)}`),
    sql`, `,
  )} from unnest(${list}::bigint[]) with ordinality u(id, n)
    join ${fromSql(entity, cells)} on ${column(ROOT, 'id')} = u.id order by u.n`;
}

const dialect = new PgDialect();

/**
 * A parameter as a literal, for the values that cannot carry SQL: numbers, booleans, null. Text (a filter's
 * value, a search) never goes into a statement's text (security rule: no SQL string built from input).
 */
function literal(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  // A quoted literal of the number's digits: typed from its context as the parameter was.
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint') return `'${String(value)}'`;
  return undefined;
}

/**
 * The statement as one text with its parameters written in as literals
 * (`COPY` takes no parameters), or undefined when a parameter is text or
 * anything else that is not a number, a boolean or null: the caller then
 * reads the rows with bound parameters instead. Literals in the text
 * (between quotes) are skipped, so that only real placeholders are replaced.
 */
export function inlineParams(query: SQL): string | undefined {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const literals = params.map(literal);
  if (literals.some((value) => value === undefined)) return undefined;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) throw new Error('Unterminated literal in an export statement');
      // A doubled quote continues the literal: the loop comes back here for its rest.
      out += text.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    if (c === '$' && /[0-9]/.test(text[i + 1] ?? '')) {
      let j = i + 1;
      while (j < text.length && /[0-9]/.test(text[j] as string)) j++;
      out += literals[Number(text.slice(i + 1, j)) - 1];
      i = j;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}
