import { customFieldTypes, optionTypes } from '@data-platform/shared/entities/custom-fields';
import { allFields, type EntityDescription, isWritable } from '@data-platform/shared/entities/entity';
import { customizableResources } from '@data-platform/shared/entities/registry';
import type { FieldDescription, FieldType } from '@data-platform/shared/fields/field-types';
import type { ApiClient } from './factories.ts';

/** Keeps a sample number within the field's bounds. */
function within(field: FieldDescription, n: number): number {
  return Math.min(field.max ?? n, Math.max(field.min ?? n, n));
}

const day = (n: number) => `2024-${String((n % 12) + 1).padStart(2, '0')}-${String((n % 28) + 1).padStart(2, '0')}`;

/**
 * A valid value of each field type, different for each `n`, as the API
 * accepts it and answers it back (text already trimmed, emails lower case).
 * References have no value of their own: the caller knows which rows exist.
 */
const samples: Record<FieldType, (field: FieldDescription, n: number) => unknown> = {
  text: (_, n) => `Text ${n}`,
  longText: (_, n) => `Long text ${n}\nsecond line`,
  email: (_, n) => `person${n}@example.com`,
  emails: (_, n) => [`first${n}@example.com`, `second${n}@example.com`],
  url: (_, n) => `https://example.com/${n}`,
  phone: (_, n) => `+1 555 ${1000 + n}`,
  integer: (field, n) => within(field, n),
  decimal: (field, n) => within(field, n + 0.5),
  percent: (field, n) => within(field, (n % 100) + 0.25),
  multiple: (field, n) => within(field, (n % 50) + 0.25),
  // A year that cannot be in the future stays in the past.
  year: (field, n) => 1900 + (n % (field.notFuture ? 100 : 300)),
  money: (_, n) => ({ amount: n + 0.75, currency: 'USD' }),
  amount: (field, n) => within(field, n + 0.125),
  currency: () => 'USD',
  date: (_, n) => day(n),
  datetime: (_, n) => `${day(n)}T10:30:00.000Z`,
  boolean: (_, n) => n % 2 === 0,
  select: (field, n) => field.options?.[n % field.options.length],
  multiSelect: (field) => field.options?.slice(0, 2),
  tags: (_, n) => [`tag ${n}`, `other ${n}`],
  reference: () => undefined,
  rating: (_, n) => (n % 5) + 1,
};

export function sampleValue(field: FieldDescription, n: number): unknown {
  return samples[field.type](field, n);
}

/** A sample value for each of the named writable fields of an entity (references left out). */
export function sampleValues(entity: EntityDescription, names: readonly string[], n: number): Record<string, unknown> {
  const fields = allFields(entity);
  const values: Record<string, unknown> = {};
  for (const name of names) {
    const field = fields[name];
    if (!field || !isWritable(field) || field.type === 'reference') continue;
    values[name] = sampleValue(field, n);
  }
  return values;
}

/**
 * One custom field of every custom type on every record type that takes
 * them, defined over HTTP as an administrator would; optional, so that
 * records made without them stay valid.
 */
export async function defineEveryCustomFieldType(api: ApiClient): Promise<void> {
  for (const entity of customizableResources) {
    for (const type of customFieldTypes) {
      const options = optionTypes.has(type) ? ['Alpha', 'Beta', 'Gamma'] : undefined;
      const answer = await api.post('/api/v1/custom-data', { entity, name: `Every ${type}`, type, options });
      if (answer.status !== 201) throw new Error(`Defining ${entity} ${type}: ${JSON.stringify(answer.body)}`);
    }
  }
}
