import type { EntityDescription } from '../entities/entity.ts';
import {
  aggregatableTypes,
  arrayTypes,
  type FieldDescription,
  fieldTypeModule,
  optionTypes,
} from '../fields/field-types.ts';

/**
 * Which fields a list's totals take and group by, from the description
 * alone (zod-free, so that the web app asks the same question cheaply).
 * System fields (id, version, timestamps) are never totalled.
 */

/** The described and custom fields whose type is aggregatable (quantities and money), in description order. */
export function aggregatableFields(entity: EntityDescription): string[] {
  return Object.entries(entity.fields)
    .filter(([, field]) => aggregatableTypes.has(field.type))
    .map(([name]) => name);
}

/**
 * True when the field's totals are per currency: money (its currency stored
 * beside the amount) and an amount whose currency is a sibling field.
 */
export function totalledPerCurrency(field: FieldDescription): boolean {
  return fieldTypeModule(field.type).storage.currencyColumn === true || Boolean(field.currencyField);
}

/** The picklist fields (one option per record) a list's totals can be grouped by, in description order. */
export function groupableFields(entity: EntityDescription): string[] {
  return Object.entries(entity.fields)
    .filter(
      ([, field]) => optionTypes.has(field.type) && !arrayTypes.has(field.type) && (field.options?.length ?? 0) > 0,
    )
    .map(([name]) => name);
}

/** The most fields one totals request takes. */
export const MAX_AGGREGATE_FIELDS = 50;
