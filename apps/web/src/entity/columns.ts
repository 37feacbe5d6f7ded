import { allFields, type EntityDescription, referenceRelationName } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import type { FieldDescription } from '@data-platform/shared/fields/field-types';
import { type FilterOp, filterOps } from '@data-platform/shared/fields/field-types';
import type { FilterCondition } from '../store/layouts-slice.ts';

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
 * `select` (with the currency of amounts), references by `join`.
 */
export function listParams(columns: readonly Column[], filters: readonly FilterCondition[], sort?: string) {
  const select = new Set<string>();
  const joins: string[] = [];
  for (const { name, field, reference } of columns) {
    if (reference) joins.push(`${reference.relation}(${reference.display})`);
    else select.add(name);
    if (field.currencyField) select.add(field.currencyField);
  }
  const params: [string, string][] = [['select', [...select].join(',')]];
  if (joins.length > 0) params.push(['join', joins.join(',')]);
  for (const { field, op, value } of filters) params.push([`filter[${field}][${op}]`, value ?? '']);
  if (sort) params.push(['sort', sort]);
  return params;
}

const isFilterOp = (value: string): value is FilterOp => (filterOps as readonly string[]).includes(value);

/** The filters an address carries: `filter[stage][eq]=Seed`, `filter[stage]=Seed` (eq). */
export function filtersOf(search: URLSearchParams): FilterCondition[] {
  const filters: FilterCondition[] = [];
  for (const [key, value] of search) {
    const match = /^filter\[([A-Za-z0-9]+)\](?:\[([A-Za-z]+)\])?$/.exec(key);
    if (!match?.[1]) continue;
    const op = match[2] ?? 'eq';
    if (!isFilterOp(op)) continue;
    filters.push({ field: match[1], op, value: op === 'isNull' || op === 'notNull' ? undefined : value });
  }
  return filters;
}
