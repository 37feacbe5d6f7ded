import { allFields, type EntityDescription, operationsOf } from '@data-platform/shared/entities/entity';
import { entityList, findEntity } from '@data-platform/shared/entities/registry';
import type { FieldDescription } from '@data-platform/shared/fields/field-types';
import { ownedEntities } from '@data-platform/shared/summaries';
import { searchFields, searchParts } from '../crud/sql-fragments.ts';
import { columnName } from './columns.ts';

/**
 * One index of an entity's table, besides its primary key: a btree over
 * `fields` (unique or not), or a trigram index over a group of its
 * searchable fields.
 */
export type PlannedIndex =
  | {
      kind: 'btree' | 'unique';
      name: string;
      fields: string[];
      /** A field whose empty rows the index leaves out (`where <field> is not null`): a partial index. */
      notNull?: string;
    }
  | { kind: 'search'; name: string; fields: string[] }
  | { kind: 'prefix'; name: string; fields: [string] };

/**
 * Every index costs each write of the table and each plan of its queries
 * (the planner weighs every index it could use), so a table carries only
 * the ones its lists need, all derived from its description:
 *
 * - its default order, `(sort fields, id)`: the first page of its list and
 *   every cursor page after it read no more than the page;
 * - each of `indexes` (+ id): a filter + sort pair of a screen, or another
 *   order users pick often;
 * - `uniques` and unique fields, which the database enforces;
 * - a trigram index over its searched display field (a name), and one over
 *   its other searchable fields together (see `searchParts`), which `q`
 *   reads;
 * - when its display field is searched and short text, a btree over its
 *   lowercase (`text_pattern_ops`): a ranked search finds the names starting
 *   with `q` by a range (crud/list-compiler.ts, decision 0025). Long text
 *   (a note's body) could exceed what a btree entry holds.
 * - the owner of a record type with an owner (`ownedEntities`, the home
 *   page's "My records"), then its default order and id, over the rows that
 *   have one: each user's count of their records, and the list filtered on
 *   them, read as many index entries as they own. Without it, a user who owns
 *   few records counted each such table whole: 230 ms of a 325-343 ms home page
 *   at 1,000,000 companies and contacts. Rows with no owner (an import's,
 *   usually) add no entry;
 * - a reference not leading one of the above when its target's rows are
 *   deleted (the delete looks for rows pointing at it) or when a `hasMany`
 *   relation lists by it (a record's related rows).
 *
 * Any other sortable field still sorts, by reading and sorting every row that
 * matches: fine for thousands of rows, slow for a million.
 */
export function indexPlan(entity: EntityDescription): PlannedIndex[] {
  const name = (fields: string[], suffix: string) =>
    `${entity.table}_${fields.map(columnName).join('_')}_${suffix}`.slice(0, 63);
  const plan: PlannedIndex[] = [];
  const leading = new Set<string>();
  const add = (index: PlannedIndex) => {
    if (plan.some((p) => p.kind === index.kind && p.fields.join() === index.fields.join())) return;
    plan.push(index);
    if (index.kind !== 'search' && index.kind !== 'prefix') leading.add(index.fields[0] as string);
  };
  const order = defaultOrderFields(entity);
  if (order.length > 0) add({ kind: 'btree', name: name(order, 'sort_idx'), fields: [...order, 'id'] });
  for (const fields of entity.indexes ?? []) {
    // One field is an order, named like the default order's index.
    add({ kind: 'btree', name: name(fields, fields.length === 1 ? 'sort_idx' : 'idx'), fields: [...fields, 'id'] });
  }
  for (const fields of entity.uniques ?? []) add({ kind: 'unique', name: name(fields, 'key'), fields });
  const owner = ownedEntities.find(({ resource }) => resource === entity.name)?.field;
  if (owner && !leading.has(owner)) {
    add({ kind: 'btree', name: name([owner], 'owned_idx'), fields: [owner, ...order, 'id'], notNull: owner });
  }
  const searched = searchFields(entity);
  for (const part of searchParts(entity)) add({ kind: 'search', name: name(part, 'trgm_idx'), fields: part });
  if (searched.includes(entity.display) && allFields(entity)[entity.display]?.type === 'text') {
    add({ kind: 'prefix', name: name([entity.display], 'prefix_idx'), fields: [entity.display] });
  }
  for (const [field, description] of Object.entries(allFields(entity))) {
    if (description.unique) leading.add(field);
  }
  for (const [field, description] of Object.entries(allFields(entity))) {
    if (field === 'id' || leading.has(field) || !referenceNeedsIndex(entity, field, description)) continue;
    add({ kind: 'btree', name: name([field], 'idx'), fields: [field] });
  }
  return plan;
}

/** The fields of the entity's default list order (`-createdAt` → createdAt), without id. */
function defaultOrderFields(entity: EntityDescription): string[] {
  return entity.list.defaultSort
    .split(',')
    .map((key) => key.trim().replace(/^[-+]/, ''))
    .filter((field) => field !== '' && field !== 'id');
}

/**
 * True for a reference whose rows someone looks up by it: the database on
 * deleting a target row (to cascade, set null or refuse), or a `hasMany`
 * relation listing a record's related rows. References to reference data
 * and to users (who are never deleted, only marked so) need none.
 */
function referenceNeedsIndex(entity: EntityDescription, field: string, description: FieldDescription): boolean {
  if (description.type !== 'reference' || !description.to) return false;
  const target = findEntity(description.to);
  if (target && operationsOf(target).includes('delete')) return true;
  return entityList.some((other) =>
    Object.values(other.relations ?? {}).some(
      (relation) => relation.kind === 'hasMany' && relation.to === entity.name && relation.foreignKey === field,
    ),
  );
}
