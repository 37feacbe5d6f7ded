import { type EntityDescription, referenceRelationName } from './entity.ts';
import { findEntity } from './registry.ts';

type Values = Readonly<Record<string, unknown>>;

const isBlank = (value: unknown) => value === undefined || value === null || value === '';

/**
 * How a record is named where it stands alone (a title, a row's actions, a
 * toast, recent activity): its display field, after the name of the record it
 * belongs to when the description says so (`displayWithin`) and that record
 * was read with it (the reference's relation joined with its display field).
 * `#7` when it has no display value.
 */
export function recordName(entity: EntityDescription, row: Values): string {
  const own = row[entity.display];
  const name = isBlank(own) ? `#${String(row.id)}` : String(own);
  if (!entity.displayWithin) return name;
  const parent = findEntity(entity.fields[entity.displayWithin]?.to ?? '');
  const related = row[referenceRelationName(entity.displayWithin)] as Values | null | undefined;
  const parentName = parent ? related?.[parent.display] : undefined;
  return isBlank(parentName) ? name : `${String(parentName)} · ${name}`;
}

/** The join (`fund(name)`) a list or get needs for `recordName` to name the record within its parent. */
export function recordNameJoins(entity: EntityDescription): string[] {
  if (!entity.displayWithin) return [];
  const parent = findEntity(entity.fields[entity.displayWithin]?.to ?? '');
  return parent ? [`${referenceRelationName(entity.displayWithin)}(${parent.display})`] : [];
}
