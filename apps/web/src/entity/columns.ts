import { allFields, type EntityDescription, referenceRelationName } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import type { FieldDescription } from '@data-platform/shared/fields/field-types';
import type { FilterCondition } from '../store/layouts-slice.ts';
import { filterParams } from './list-state.ts';

/** A column of a list: the field, and for a reference the relation that names the referenced row. */
export interface Column {
  name: string;
  field: FieldDescription;
  /** `hqCountryId` → relation `hqCountry`, shown by the referenced entity's display field. */
  reference?: { relation: string; display: string };
}

export function columnsOf(entity: EntityDescription, names: readonly string[]): Column[] {
  const fields = allFields(entity);
  return names.flatMap((name) => {
    const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (!field) return [];
    const target = field.type === 'reference' && field.to ? findEntity(field.to) : undefined;
    return [
      {
        name,
        field,
        reference: target ? { relation: referenceRelationName(name), display: target.display } : undefined,
      },
    ];
  });
}

/**
 * The list parameters that fetch exactly the columns: plain fields in
 * `select` (with the currency of amounts, and the version that edits need),
 * references by `join`, and the joins `nameJoins` that name a row; then
 * filters, search and sort.
 */
export function listParams(
  columns: readonly Column[],
  { filters, sort, q }: { filters: readonly FilterCondition[]; sort?: string; q?: string },
  pageSize: number,
  nameJoins: readonly string[] = [],
): [string, string][] {
  const select = new Set<string>();
  const joins: string[] = [];
  for (const { name, field, reference } of columns) {
    if (reference) joins.push(`${reference.relation}(${reference.display})`);
    else select.add(name);
    if (field.currencyField) select.add(field.currencyField);
  }
  // What names a row within its parent (recordNameJoins: a fund performance's fund), unless a column joins it already.
  for (const join of nameJoins) {
    const relation = join.slice(0, join.indexOf('('));
    if (!joins.some((j) => j.startsWith(`${relation}(`))) joins.push(join);
  }
  select.add('version');
  const params: [string, string][] = [['select', [...select].join(',')]];
  if (joins.length > 0) params.push(['join', joins.join(',')]);
  params.push(...filterParams(filters));
  if (q?.trim()) params.push(['q', q.trim()]);
  if (sort) params.push(['sort', sort]);
  params.push(['pageSize', String(pageSize)]);
  return params;
}
