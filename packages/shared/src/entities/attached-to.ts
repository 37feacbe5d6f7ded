import type { FieldDescription } from '../fields/field-types.ts';
import { entityLabelsWith, entityNamesWith } from './entity.ts';

/**
 * The two fields by which a row belongs to one record of any attachable
 * entity (notes, files, tasks): its record type and its id. Pair them with
 * `attachedTo: { entityField: 'entity', idField: 'recordId' }`. The record
 * types are the entities flagged `attachable`, read once the registry has
 * loaded (see entityNamesWith).
 */
export function attachedToFields(how: { required: boolean; writable: 'once' | 'server' | 'always' }) {
  const writes =
    how.writable === 'server'
      ? ({ serverOwned: true } as const)
      : how.writable === 'once'
        ? ({ immutable: true } as const)
        : ({} as const);
  return {
    entity: {
      type: 'select',
      label: 'Record type',
      get options(): readonly string[] {
        return entityNamesWith('attachable');
      },
      get optionLabels(): Readonly<Record<string, string>> {
        return entityLabelsWith('attachable');
      },
      required: how.required,
      filterable: true,
      ...writes,
    },
    recordId: { type: 'reference', label: 'Record', required: how.required, filterable: true, ...writes },
  } as const satisfies Record<string, FieldDescription>;
}
