import { allFields, type EntityDescription, referenceRelationName } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import { arrayTypes, type FieldDescription } from '@data-platform/shared/fields/field-types';
import type { Condition, FilterNode, JoinSpec, ListQuery, SortKey } from '@data-platform/shared/query/list-query';
import { type SQL, sql } from 'drizzle-orm';
import { columnName } from '../db/columns.ts';
import { fieldOrderKey, type OrderKey, plainOrderKey } from './sort-order.ts';
import {
  column,
  columnTypeSql,
  fieldOf,
  outOfSight,
  pgArrayLiteral,
  type RowJsonKind,
  rowJson,
  SEARCH_SEPARATOR,
  searchFields,
  searchMatches,
  sqlArrayType,
  valueExpr,
} from './sql-fragments.ts';

export const ROOT = 't';

/** `text` matched literally by LIKE: its wildcards and the escape character escaped. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Whether a condition's operator binds a value (all but `isNull` and `notNull`). */
const bindsValue = (c: Condition): boolean => c.op !== 'isNull' && c.op !== 'notNull';

/**
 * The value a condition binds, as it is bound: the only part of a filter's
 * statement that comes from the caller (the field and operator choose the
 * text). Undefined for the operators that bind nothing.
 */
function conditionValue(field: FieldDescription, c: Condition): unknown {
  if (!bindsValue(c)) return undefined;
  if (arrayTypes.has(field.type)) return c.op === 'in' ? pgArrayLiteral(c.value as unknown[]) : String(c.value);
  switch (c.op) {
    case 'in':
      return pgArrayLiteral(c.value as unknown[]);
    case 'contains':
      return `%${escapeLike(String(c.value))}%`;
    case 'startsWith':
      return `${escapeLike(String(c.value))}%`;
    default:
      return typeof c.value === 'number' || typeof c.value === 'boolean' ? String(c.value) : c.value;
  }
}

/** Binds each condition's value in turn: its own, or the next of `values` (stand-ins of CompiledTexts). */
type Binder = (field: FieldDescription, c: Condition) => unknown;
const ownValues: Binder = conditionValue;
function boundValues(values: readonly unknown[]): Binder {
  let next = 0;
  return (_field, c) => (bindsValue(c) ? values[next++] : undefined);
}

function conditionSql(entity: EntityDescription, c: Condition, bind: Binder): SQL {
  const field = fieldOf(entity, c.field);
  const expr = valueExpr(ROOT, c.field, field);
  const value = bind(field, c);
  if (arrayTypes.has(field.type)) {
    switch (c.op) {
      case 'contains':
        return sql`${value} = any(${expr})`;
      case 'in':
        return sql`${expr} && ${value}::text[]`;
      case 'isNull':
        return sql`cardinality(${expr}) = 0`;
      case 'notNull':
        return sql`cardinality(${expr}) > 0`;
      default:
        throw new Error(`Operator ${c.op} on an array field`);
    }
  }
  switch (c.op) {
    case 'eq':
      return sql`${expr} = ${value}`;
    case 'ne':
      return sql`${expr} is distinct from ${value}`;
    case 'lt':
      return sql`${expr} < ${value}`;
    case 'lte':
      return sql`${expr} <= ${value}`;
    case 'gt':
      return sql`${expr} > ${value}`;
    case 'gte':
      return sql`${expr} >= ${value}`;
    case 'in':
      return sql`${expr} = any(${value}::${sqlArrayType(field.type)})`;
    case 'contains':
    case 'startsWith':
      return sql`${expr} ilike ${value}`;
    case 'isNull':
      return sql`${expr} is null`;
    case 'notNull':
      return sql`${expr} is not null`;
  }
}

function nodeSql(entity: EntityDescription, node: FilterNode, bind: Binder): SQL {
  if ('and' in node || 'or' in node) {
    const children = 'and' in node ? node.and : node.or;
    if (children.length === 0) return 'and' in node ? sql`true` : sql`false`;
    const parts = children.map((c) => sql`(${nodeSql(entity, c, bind)})`);
    return sql.join(parts, 'and' in node ? sql` and ` : sql` or `);
  }
  return conditionSql(entity, node, bind);
}

/**
 * A filter's shape and values apart: `shape` names its fields, operators and
 * groups (what its statement's text follows), `values` what its conditions
 * bind, in the order whereSql binds them (BoundInstead's `filter`).
 */
export interface FilterParts {
  shape: string;
  values: unknown[];
}

export function filterParts(entity: EntityDescription, node: FilterNode): FilterParts {
  const values: unknown[] = [];
  const shapeOf = (n: FilterNode): unknown => {
    if ('and' in n) return { and: n.and.map(shapeOf) };
    if ('or' in n) return { or: n.or.map(shapeOf) };
    const value = conditionValue(fieldOf(entity, n.field), n);
    if (value !== undefined) values.push(value);
    return [n.field, n.op];
  };
  return { shape: JSON.stringify(shapeOf(node)), values };
}

/**
 * What a search (`q`) binds, as it is bound: the `ilike` pattern of any
 * match, the pattern of a prefix match, and the term itself (an exact
 * match ranks first). `separated`: the term holds the separator of the
 * searched fields' texts, and is matched field by field (the text follows it).
 */
export interface SearchTerms {
  pattern: unknown;
  prefix: unknown;
  term: unknown;
  separated: boolean;
}

export function searchTerms(q: string): SearchTerms {
  return {
    pattern: `%${escapeLike(q)}%`,
    prefix: `${escapeLike(q)}%`,
    term: q,
    separated: q.includes(SEARCH_SEPARATOR),
  };
}

/**
 * `q` as a match against the searched text of every row, one test per group
 * of fields (searchMatches), each answered by its trigram index. A `q`
 * holding the separator is matched field by field, so that it never matches
 * across two fields.
 */
function searchSql(entity: EntityDescription, terms: SearchTerms): SQL {
  const { pattern } = terms;
  const fields = searchFields(entity);
  if (fields.length === 0) return sql`false`;
  if (terms.separated) {
    return sql.join(
      fields.map((f) => sql`${valueExpr(ROOT, f)} ilike ${pattern}`),
      sql` or `,
    );
  }
  return searchMatches(entity, (f) => valueExpr(ROOT, f), sql`${pattern}`);
}

/**
 * The display field starts with `q`, whatever the case: `lower(display) like
 * lower(pattern)`, which is what `ilike` does on a UTF-8 database, written so
 * that a btree over `lower(display)` (text_pattern_ops) finds the rows by a
 * range instead of a scan of every match.
 */
function prefixSql(entity: EntityDescription, terms: SearchTerms): SQL {
  return sql`lower(${valueExpr(ROOT, entity.display)}) like lower(${terms.prefix})`;
}

/** 0 for an exact match of the display field, 1 for a prefix match, 2 for any other match. */
function rankExpr(entity: EntityDescription, terms: SearchTerms): SQL {
  const display = valueExpr(ROOT, entity.display);
  return sql`(case when lower(${display}) = lower(${terms.term}) then 0 when ${prefixSql(entity, terms)} then 1 else 2 end)`;
}

/** The rank of every row that is no prefix match of the display field. */
export const LAST_RANK = 2;
/** Rows of the list's order a ranked search walks for its rank-2 matches before it reads them all. */
const WALKED_ROWS = 500;

/** Narrows a list to the rows related to one record, adding the link each came through. */
export interface ListScope {
  where: SQL;
  extra?: [string, SQL][];
  /** How a list keeps its statement's text with this scope (CompiledTexts); without it the list is built each time. */
  shape?: ScopeShape;
  /**
   * The fields `where` holds equal to one bound value each, when that is all
   * it does (a record's related rows by their reference to it): what decides
   * whether an index serves every value alike (repeats-its-plan.ts, decision 0049).
   */
  equals?: readonly string[];
}

/**
 * A scope's part of a list's shape: `key` names its SQL but for `values`,
 * what it binds (a related record's id), and `rebuild` makes the same scope
 * binding other values (CompiledTexts' stand-ins).
 */
export interface ScopeShape {
  key: string;
  values: readonly unknown[];
  rebuild(values: readonly unknown[]): ListScope;
}

/**
 * The WHERE clause of a list: scope, filters and search, without paging.
 * `instead`, when given, binds its filter values and search terms in place
 * of the query's own (stand-ins of CompiledTexts).
 */
export function whereSql(
  entity: EntityDescription,
  query: Pick<ListQuery, 'where' | 'q'>,
  scope?: ListScope,
  instead: BoundInstead = {},
): SQL {
  const parts: SQL[] = scope ? [sql`(${scope.where})`] : [];
  if (query.where) {
    const bind = instead.filter ? boundValues(instead.filter) : ownValues;
    parts.push(sql`(${nodeSql(entity, query.where, instead.unseen ? equalsOutOfSight(bind) : bind)})`);
  }
  if (query.q) parts.push(sql`(${searchSql(entity, instead.search ?? searchTerms(query.q))})`);
  return parts.length > 0 ? sql.join(parts, sql` and `) : sql`true`;
}

/** True when a list is ordered by the search rank first (a search in no order the caller gave). */
export function ranked(
  entity: EntityDescription,
  query: Pick<ListQuery, 'q' | 'sortGiven'>,
): query is { q: string } & ListQuery {
  return !!query.q && !query.sortGiven && searchFields(entity).includes(entity.display);
}

/** The keys of a list's order: the search rank first when the search is ranked, then the sort (id last). */
export function orderKeys(entity: EntityDescription, query: ListQuery, terms?: SearchTerms): OrderKey[] {
  const keys: OrderKey[] = [];
  if (ranked(entity, query)) keys.push(plainOrderKey(rankExpr(entity, terms ?? searchTerms(query.q)), 'asc', false));
  query.sort.forEach((key, i) => {
    keys.push(fieldOrderKey(entity, ROOT, key.field, key.dir, i));
  });
  return keys;
}

/** A stable name for the order of a list, so that a cursor is only used with the order it came from. */
export function orderSignature(query: ListQuery): string {
  const rank = query.q && !query.sortGiven ? 'rank,' : '';
  return rank + query.sort.map((k: SortKey) => (k.dir === 'desc' ? `-${k.field}` : k.field)).join(',');
}

/** Rows strictly after the cursor values in the list order (nulls sort last ascending, first descending). */
function keysetSql(keys: OrderKey[], values: readonly unknown[], unseen = false): SQL {
  const at = (k: OrderKey, v: unknown): SQL => (unseen && k.type ? k.at(outOfSight(v, k.type)) : k.at(v));
  const uniform = keys.every((k) => !k.nullable && k.dir === keys[0]?.dir);
  if (uniform) {
    const op = keys[0]?.dir === 'desc' ? sql`<` : sql`>`;
    return sql`(${sql.join(
      keys.map((k) => k.expr),
      sql`, `,
    )}) ${op} (${sql.join(
      keys.map((k, i) => at(k, values[i])),
      sql`, `,
    )})`;
  }
  const after = (k: OrderKey, v: unknown): SQL => {
    if (v === null) return k.dir === 'asc' ? sql`false` : sql`${k.expr} is not null`;
    if (k.dir === 'asc') {
      return k.nullable ? sql`(${k.expr} > ${at(k, v)} or ${k.expr} is null)` : sql`${k.expr} > ${at(k, v)}`;
    }
    return sql`${k.expr} < ${at(k, v)}`;
  };
  const equal = (k: OrderKey, v: unknown): SQL => (v === null ? sql`${k.expr} is null` : sql`${k.expr} = ${at(k, v)}`);
  let condition: SQL | undefined;
  for (let i = keys.length - 1; i >= 0; i--) {
    const k = keys[i] as OrderKey;
    const v = values[i];
    condition = condition ? sql`(${after(k, v)} or (${equal(k, v)} and ${condition}))` : after(k, v);
  }
  const first = keys[0] as OrderKey;
  const firstValue = values[0];
  // A redundant bound on the first key lets the planner walk the matching index.
  if (!first.nullable && firstValue !== null) {
    const atFirst = at(first, firstValue);
    const bound = first.dir === 'asc' ? sql`${first.expr} >= ${atFirst}` : sql`${first.expr} <= ${atFirst}`;
    return sql`${bound} and ${condition}`;
  }
  return condition ?? sql`true`;
}

/** The rows of the entity (as the root row) a reader its `limitedRead` limits may see, if it limits rows. */
export function limitedRowsWhere(entity: EntityDescription): SQL | undefined {
  const rows = entity.limitedRead?.rows;
  return rows ? whereSql(entity, { where: { field: rows.field, op: 'in', value: [...rows.oneOf] } }) : undefined;
}

/** `and` a condition keeping a joined row (as `alias`) only when a limited reader may see it. */
function joinedRowsSql(target: EntityDescription, alias: string, join: JoinSpec): SQL {
  const where = join.limitedRows ? limitedRowsWhere(target) : undefined;
  if (!where) return sql``;
  return sql` and ${column(alias, 'id')} in (select ${column(ROOT, 'id')} from ${sql.identifier(target.table)} ${sql.identifier(ROOT)} where ${where})`;
}

function joinSql(entity: EntityDescription, join: JoinSpec, index: number): SQL {
  const target = findEntity(join.target);
  if (!target) throw new Error(`Unknown resource ${join.target}`);
  const alias = `j${index}`;
  const rows = joinedRowsSql(target, alias, join);
  const names = ['id', ...join.fields.filter((f) => f !== 'id')];
  const order = sql`${valueExpr(alias, target.display)}, ${column(alias, 'id')}`;
  const named = entity.relations?.[join.relation];
  if (named?.kind === 'hasMany') {
    const fk = column(alias, columnName(named.foreignKey));
    return sql`(select coalesce(jsonb_agg(${rowJson(target, alias, names)} order by ${order}), '[]'::jsonb)
      from ${sql.identifier(target.table)} ${sql.identifier(alias)} where ${fk} = ${column(ROOT, 'id')}${rows})`;
  }
  if (named?.kind === 'manyToMany') {
    const via = findEntity(named.via);
    if (!via) throw new Error(`Unknown link collection ${named.via}`);
    const link = `l${index}`;
    const linkFields = ['id', ...Object.keys(via.fields).filter((f) => f !== named.from && f !== named.target)];
    const row = rowJson(target, alias, names, [['link', rowJson(via, link, linkFields)]]);
    return sql`(select coalesce(jsonb_agg(${row} order by ${order}), '[]'::jsonb)
      from ${sql.identifier(via.table)} ${sql.identifier(link)}
      join ${sql.identifier(target.table)} ${sql.identifier(alias)} on ${column(alias, 'id')} = ${column(link, columnName(named.target))}
      where ${column(link, columnName(named.from))} = ${column(ROOT, 'id')}${rows})`;
  }
  const fk = Object.keys(allFields(entity)).find(
    (f) => referenceRelationName(f) === join.relation && f !== join.relation,
  );
  if (!fk) throw new Error(`Unknown relation ${join.relation}`);
  return sql`(select ${rowJson(target, alias, names)} from ${sql.identifier(target.table)} ${sql.identifier(alias)}
    where ${column(alias, 'id')} = ${column(ROOT, columnName(fk))}${rows})`;
}

/** The jsonb (or json, to be sent as text: `kind`) of a root row with the selected fields and joins. */
export function selectionSql(
  entity: EntityDescription,
  query: Pick<ListQuery, 'select' | 'join'>,
  extra: [string, SQL][] = [],
  kind: RowJsonKind = 'jsonb',
): SQL {
  const names = selectedNames(entity, query);
  const joins = query.join.map((j, i): [string, SQL] => [j.relation, joinSql(entity, j, i)]);
  return rowJson(entity, ROOT, names, [...joins, ...extra], kind);
}

/**
 * The scope of `GET /{resource}/{id}/{relation}`: rows of the related entity
 * that belong to record `id`, each with its link row when the relation goes
 * through a link collection.
 */
export function relationScope(entity: EntityDescription, relation: string, id: number): ListScope | undefined {
  const named = entity.relations?.[relation];
  if (!named) return undefined;
  const shape: ScopeShape = {
    key: `${entity.name}.${relation}`,
    values: [id],
    rebuild: ([bound]) => relationScope(entity, relation, bound as number) as ListScope,
  };
  if (named.kind === 'hasMany') {
    return { where: sql`${column(ROOT, columnName(named.foreignKey))} = ${id}`, shape, equals: [named.foreignKey] };
  }
  const via = findEntity(named.via);
  if (!via) return undefined;
  const from = column('l', columnName(named.from));
  const target = column('l', columnName(named.target));
  const linkFields = [
    'id',
    'version',
    ...Object.keys(via.fields).filter((f) => f !== named.from && f !== named.target),
  ];
  return {
    where: sql`${column(ROOT, 'id')} in (select ${target} from ${sql.identifier(via.table)} l where ${from} = ${id})`,
    extra: [
      [
        'link',
        sql`(select ${rowJson(via, 'l', linkFields)} from ${sql.identifier(via.table)} l
          where ${from} = ${id} and ${target} = ${column(ROOT, 'id')})`,
      ],
    ],
    shape,
  };
}

/** The rows a list's page skips: none after a cursor. */
export function pageOffset(query: Pick<ListQuery, 'page' | 'pageSize'>, cursorValues?: readonly unknown[]): number {
  return cursorValues ? 0 : (query.page - 1) * query.pageSize;
}

/**
 * How a ranked search reads its page: `walk` (rankedPage: bounded reads that
 * suit any number of matches) or `fewMatches` (every match through the
 * trigram indexes, ranked and sorted: a few hundred rows cost less than the
 * walk's reads). `searchPlan` of list-count.ts chooses by the planner's
 * estimate (decision 0043); both give the same page.
 */
export type SearchPlan = 'walk' | 'fewMatches';

/**
 * Values a list's statement binds in place of the query's own: stand-ins of
 * CompiledTexts. The statement's shape still follows the query.
 */
export interface BoundInstead {
  /** where the page's offset goes */
  offset?: unknown;
  /** where a ranked search's reach goes: the offset plus the page and one */
  reach?: unknown;
  /** the filter's values, in filterParts' order */
  filter?: readonly unknown[];
  /** the search's terms */
  search?: SearchTerms;
  /**
   * The values a named statement binds read by subqueries, `(select
   * $1::text)`, out of the planner's sight: every plan PostgreSQL makes of
   * the statement, the custom ones included, is then made for any value, and
   * it keeps the generic plan after its five custom ones instead of planning
   * each request (decisions 0054 and 0055). A search's terms and offset (a
   * search's estimates were half of its time in the database at 1,000,000
   * companies); a list's cursor values and the values its fields are equal
   * to, where their type is known. A list's offset stays in sight: its plan
   * reads the skipped rows' ids through the order's index, and a generic plan
   * assuming a tenth of the table skipped might sort the table instead. Only
   * for a named statement whose one plan is right for every value it binds
   * (`plannedOnce`).
   */
  unseen?: boolean;
}

/**
 * A page's limit, or an offset no request binds (the first page's 0), written
 * into the statement's text (decision 0055). The page size is part of a
 * list's shape, so each request of the shape sends the same text. Bound as a
 * parameter, a named statement's generic plan knew neither, assumed a tenth of
 * the table, and cost more than the plans made for the values: PostgreSQL
 * planned every list request anew. Only a safe integer is written.
 */
function rowCountSql(rows: number): SQL {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new Error(`Not a row count: ${rows}`);
  return sql.raw(String(rows));
}

/**
 * A page's offset: the first page's 0 written in; any other bound, as each
 * request of the shape binds its own (out of the planner's sight with the
 * search terms).
 */
function offsetSql(offset: number, query: ListQuery, instead: BoundInstead): unknown {
  const bound = instead.offset ?? offset;
  if (bound === 0) return rowCountSql(0);
  return instead.unseen && query.q !== undefined ? outOfSight(bound, BIGINT) : bound;
}

const TEXT = sql.raw('text');
const BIGINT = sql.raw('bigint');

/** Binds as `bind` does, with the values of `eq` conditions on built-in fields out of the planner's sight. */
function equalsOutOfSight(bind: Binder): Binder {
  return (field, c) => {
    const value = bind(field, c);
    const type = c.op === 'eq' ? columnTypeSql(field) : undefined;
    return type && value !== undefined ? outOfSight(value, type) : value;
  };
}

/** BoundInstead's search terms as the statement binds them: out of sight when `unseen`. */
function seenOrNot(query: ListQuery, instead: BoundInstead): BoundInstead {
  if (!instead.unseen) return instead;
  const terms = instead.search ?? (query.q !== undefined ? searchTerms(query.q) : undefined);
  return {
    ...instead,
    search: terms && {
      pattern: outOfSight(terms.pattern, TEXT),
      prefix: outOfSight(terms.prefix, TEXT),
      term: outOfSight(terms.term, TEXT),
      separated: terms.separated,
    },
  };
}

/**
 * One statement for a page of a list: `row` (the JSON the client gets) and
 * `cursor` (the sort values that continue after it). Fetches one row more
 * than the page to know whether there is a next page.
 */
export function listSql(
  entity: EntityDescription,
  query: ListQuery,
  cursorValues?: readonly unknown[],
  scope?: ListScope,
  search: SearchPlan = 'walk',
  bound: BoundInstead = {},
): SQL {
  const instead = seenOrNot(query, bound);
  const keys = orderKeys(entity, query, instead.search);
  const conditions = [whereSql(entity, query, scope, instead)];
  if (cursorValues) conditions.push(keysetSql(keys, cursorValues, instead.unseen));
  const offset = pageOffset(query, cursorValues);
  const order = sql.join(
    keys.map((k) => sql`${k.expr} ${k.dir === 'desc' ? sql`desc` : sql`asc`}`),
    sql`, `,
  );
  const table = sql`${sql.identifier(entity.table)} ${sql.identifier(ROOT)}`;
  // The page is chosen among bare rows first; the JSON is then built for its rows only. Built in the
  // same SELECT, it would be computed for every match that a sort (q ranking, an order no index
  // gives) has to see: 350 ms instead of 20 ms for a search matching 7,000 of 1,000,000 companies.
  const page = (columns: SQL) =>
    ranked(entity, query) && search === 'walk'
      ? rankedPage(entity, query, keys, cursorValues, scope, columns, offset, instead)
      : sql`select ${columns} from ${table}
      where ${sql.join(conditions, sql` and `)}
      order by ${order}
      limit ${rowCountSql(query.pageSize + 1)} offset ${offsetSql(offset, query, instead)}`;
  // Past an offset, the page is chosen by id alone and its rows read after: the skipping then walks
  // the order's index without visiting the table (an index-only scan), where a plain OFFSET reads
  // every row it skips. Page 1000 of companies by name: 20 ms instead of 600 ms. An array of ids
  // rather than a join: planning a join on id probes the ends of the primary key, slow while
  // they hold many dead rows (after a bulk insert rolled back).
  const rows =
    offset > 0
      ? sql`${table} where ${column(ROOT, 'id')} = any(array(${page(column(ROOT, 'id'))}))`
      : sql`(${page(sql`${sql.identifier(ROOT)}.*`)}) ${sql.identifier(ROOT)}`;
  return sql`select ${selectionSql(entity, query, scope?.extra, 'json')}::text as row, jsonb_build_array(${sql.join(
    keys.map((k) => k.cursor),
    sql`, `,
  )}) as cursor
    from ${rows}
    order by ${order}`;
}

/**
 * A page of a ranked search without reading every match (decision 0025).
 * Ordering all matches by `rank, sort, id` is a top-N over every match: a
 * term in a fifth of the rows (`ltd`) read and sorted all of them. The ranks
 * split the matches in two sets, each read only as far as the page needs:
 *
 * - ranks 0 and 1, the display field starting with `q`: found through the
 *   prefix index over `lower(display)` (a range), few rows, sorted;
 * - rank 2, every other match, in the list's own order: the planner walks the
 *   order's index and keeps the matches until the page is full when `q` is
 *   frequent, or reads the trigram index's few matches and sorts them when it
 *   is rare.
 *
 * Each set gives at most the page (plus the rows skipped by an offset), and
 * the two are merged in the full order, so the page is the one the single
 * top-N gave. After a cursor, the rank-2 set is bounded by the cursor's sort
 * values alone when the cursor is in it, and not at all when it is before it.
 */
function rankedPage(
  entity: EntityDescription,
  query: ListQuery,
  keys: OrderKey[],
  cursorValues: readonly unknown[] | undefined,
  scope: ListScope | undefined,
  columns: SQL,
  offset: number,
  instead: BoundInstead,
): SQL {
  const where = whereSql(entity, query, scope, instead);
  const terms = instead.search ?? searchTerms(query.q as string);
  const table = sql`${sql.identifier(entity.table)} ${sql.identifier(ROOT)}`;
  const orderOf = (of: OrderKey[]) =>
    sql.join(
      of.map((k) => sql`${k.expr} ${k.dir === 'desc' ? sql`desc` : sql`asc`}`),
      sql`, `,
    );
  const sortKeys = keys.slice(1);
  const reach = instead.reach ?? offset + query.pageSize + 1;
  const prefix = [where, prefixSql(entity, terms)];
  const others = [where, sql`(${prefixSql(entity, terms)}) is not true`];
  if (cursorValues) {
    const rank = cursorValues[0];
    prefix.push(keysetSql(keys, cursorValues));
    // Ranks 0 and 1 bound the prefix matches only (decodeCursor accepts no other rank).
    if (rank === LAST_RANK) others.push(keysetSql(sortKeys, cursorValues.slice(1)));
  }
  const branch = (conditions: SQL[], of: OrderKey[]) =>
    sql`(select ${sql.identifier(ROOT)}.* from ${table} where ${sql.join(conditions, sql` and `)}
      order by ${orderOf(of)} limit ${reach})`;
  // Rank 2 in two steps, so that a wrong guess of the planner costs a bounded walk: the first
  // WALKED_ROWS rows in the list's order (without the search), kept when they match; when they hold
  // the page, they are the page's first matches in that order. Otherwise every match is read
  // (the trigram index) and sorted, as the fence (offset 0) leaves no index walk to choose.
  const [, ...withoutSearch] = others;
  const walkConditions = [whereSql(entity, { where: query.where }, scope, instead), ...withoutSearch];
  const walked = sql`select ${sql.identifier(ROOT)}.* from (select ${sql.identifier(ROOT)}.* from ${table}
      where ${sql.join(walkConditions, sql` and `)} order by ${orderOf(sortKeys)} limit ${WALKED_ROWS}) ${sql.identifier(ROOT)}
      where ${searchSql(entity, terms)} order by ${orderOf(sortKeys)} limit ${reach}`;
  const all = sql`(select ${sql.identifier(ROOT)}.* from (select ${sql.identifier(ROOT)}.* from ${table}
      where ${sql.join(others, sql` and `)} offset 0) ${sql.identifier(ROOT)}
      where (select count(*) from w) < ${reach} order by ${orderOf(sortKeys)} limit ${reach})`;
  return sql`with w as (${walked})
    select ${columns} from (${branch(prefix, keys)}
      union all (select * from w where (select count(*) from w) >= ${reach})
      union all ${all}) ${sql.identifier(ROOT)}
      order by ${orderOf(keys)}
      limit ${query.pageSize + 1} offset ${instead.offset ?? offset}`;
}

/** The number of keys a cursor of this list carries. */
export function orderKeyCount(entity: EntityDescription, query: ListQuery): number {
  return orderKeys(entity, query).length;
}

/** The fields a row's JSON holds: the selection and id, or every field. */
function selectedNames(entity: EntityDescription, query: Pick<ListQuery, 'select'>): string[] {
  return query.select ? ['id', ...query.select.filter((f) => f !== 'id')] : Object.keys(allFields(entity));
}

/**
 * One row by id, with selection and joins, if it is within the scope. When
 * the row's JSON holds the version, it also comes as a column of its own
 * (the reply's ETag), so that the JSON is sent as it is, never parsed.
 */
export function getSql(
  entity: EntityDescription,
  id: number,
  query: Pick<ListQuery, 'select' | 'join'>,
  scope?: ListScope,
): SQL {
  const version = selectedNames(entity, query).includes('version')
    ? sql`, ${column(ROOT, columnName('version'))} as version`
    : sql``;
  return sql`select ${selectionSql(entity, query, [], 'json')}::text as row${version} from ${sql.identifier(entity.table)} ${sql.identifier(ROOT)}
    where ${column(ROOT, 'id')} = ${id} and (${scope ? scope.where : sql`true`})`;
}

/** Rows attached to records of the given types only (notes and files of what the actor may read). */
export function attachmentScope(entity: EntityDescription, recordTypes: string[]): ListScope | undefined {
  if (!entity.attachedTo) return undefined;
  const field = column(ROOT, columnName(entity.attachedTo.entityField));
  const types = pgArrayLiteral(recordTypes);
  // The record types are few sets (one per role): a constant of the shape.
  const where = sql`${field} = any(${types}::text[])`;
  return { where, shape: { key: `attached to ${types}`, values: [], rebuild: () => ({ where }) } };
}
