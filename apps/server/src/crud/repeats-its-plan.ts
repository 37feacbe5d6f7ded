import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import type { FilterNode, ListQuery } from '@data-platform/shared/query/list-query';
import type { DatabaseKind } from '../db/client.ts';
import { indexPlan } from '../db/index-plan.ts';
import type { ListScope, SearchPlan } from './list-compiler.ts';
import { ordersByColumn } from './sort-order.ts';
import { fieldOf } from './sql-fragments.ts';

/**
 * Whether a list's page statement may run prepared, its plan kept and, after
 * five runs, made generic by PostgreSQL: only when one plan is right for every
 * value the caller may bind (decisions 0021 and 0049).
 *
 * - A whole table (no filter, search or scope), in any order: the values a run
 *   binds (a cursor, an offset) change how far the plan reads, not which plan.
 * - Rows holding given values, each field equal to one (`filter[hqCountryId]=…`,
 *   a country's states), in an order a btree index serves right after those
 *   fields (`(hq_country_id, name, id)` for `sort=name`): whatever the values,
 *   the plan reads that index's range from its start or the cursor, the page's
 *   rows and no others, whether the country holds ten companies or half of them.
 *
 * - A ranked search of the whole table read the `fewMatches` way (every match
 *   through the trigram indexes, then ranked and sorted; `searchPlan` chooses
 *   it when the planner expects at most FEW_MATCHES rows): whatever the
 *   pattern, the matches come from those indexes, and no index gives the
 *   rank's order to walk instead. Named, the statement is parsed once per
 *   connection (about 0.6 ms of PostgreSQL's CPU a search at 1,000,000
 *   companies, decision 0052); PostgreSQL still plans it for each pattern
 *   while that costs less than its generic plan, which is the same trigram
 *   read (measured: patterns of 0 to 18 matches stayed custom, 7,300 went generic).
 *
 * Every other list is planned for its own values: a range, a pattern, a set of
 * values or a search can match a few rows or most of them, and the best plan
 * for one is not the best for the other. A search beside a filter or a scope is
 * among them: the filter's own index may be the better read for one pattern and
 * not for another.
 */
export function repeatsItsPlan(
  entity: EntityDescription,
  query: ListQuery,
  scope?: ListScope,
  search: SearchPlan = 'walk',
): boolean {
  if (query.q) return search === 'fewMatches' && !query.where && !scope;
  if (!query.where && !scope) return true;
  if (scope && !scope.equals) return false;
  const equal = query.where ? equalFields(query.where) : [];
  if (!equal) return false;
  const fields = [...(scope?.equals ?? []), ...equal];
  if (new Set(fields).size !== fields.length) return false;
  if (fields.some((name) => fieldOf(entity, name).custom)) return false;
  const direction = query.sort[0]?.dir;
  if (query.sort.some((key) => key.dir !== direction || !ordersByColumn(fieldOf(entity, key.field)))) return false;
  const wanted = new Set(fields);
  const order = query.sort.map((key) => key.field);
  return btreeIndexes(entity).some(
    (index) =>
      index.length === fields.length + order.length &&
      index.slice(0, fields.length).every((field) => wanted.has(field)) &&
      index.slice(fields.length).every((field, i) => field === order[i]),
  );
}

/**
 * Whether a named statement binds its values out of the planner's sight
 * (BoundInstead's `unseen`, decisions 0054 and 0055), so that PostgreSQL plans
 * it once for every value instead of once a request: every statement
 * `repeatsItsPlan` names on PostgreSQL (PGlite names none and plans each
 * statement, for which the values in sight are worth more), but a search
 * whose term holds no three letters or digits in a row. Such a term (`qz`) gives the trigram indexes no trigram to
 * look up, and its generic plan would read every entry of both (2.6 to 3.5 s
 * at 1,000,000 companies); planned for its own pattern, PostgreSQL reads the
 * table instead (0.6 s). It stays planned per pattern.
 */
export function plannedOnce(query: Pick<ListQuery, 'q'>, named: boolean, kind: DatabaseKind): boolean {
  return named && kind === 'postgres' && (query.q === undefined || /[a-z0-9]{3}/i.test(query.q));
}

/** The fields of a filter that only holds fields equal to values (`eq`, joined by `and`), or null. */
function equalFields(node: FilterNode): string[] | null {
  if ('or' in node) return null;
  if ('and' in node) {
    const fields: string[] = [];
    for (const child of node.and) {
      const more = equalFields(child);
      if (!more) return null;
      fields.push(...more);
    }
    return fields;
  }
  return node.op === 'eq' && node.value !== undefined && node.value !== null ? [node.field] : null;
}

const btreeCache = new Map<string, string[][]>();

/** The fields of each btree index of the entity's table (its migrations' `indexPlan`), the table's own description. */
function btreeIndexes(entity: EntityDescription): string[][] {
  let indexes = btreeCache.get(entity.name);
  if (!indexes) {
    const own = findEntity(entity.name) ?? entity;
    indexes = indexPlan(own)
      .filter((index) => index.kind === 'btree')
      .map((index) => index.fields);
    btreeCache.set(entity.name, indexes);
  }
  return indexes;
}
