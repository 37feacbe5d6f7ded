import {
  customFieldTypeLabels,
  customFieldTypes,
  type FieldDescription,
  optionTypes,
  sortableTypes,
} from '../fields/field-types.ts';
import { nameField } from './common-fields.ts';
import { defineEntity, type EntityDescription, entityLabelsWith, entityNamesWith } from './entity.ts';

/** The field types a custom field can have: each field type module says whether it is offered. */
export { customFieldTypes, optionTypes };
export type CustomFieldType = (typeof customFieldTypes)[number];

const manage = {
  read: null,
  create: 'customFields:manage',
  update: 'customFields:manage',
  delete: 'customFields:manage',
} as const;

const entityField = {
  type: 'select',
  label: 'Record type',
  // Read once the registry has loaded (see entityNamesWith); the options
  // namespace names each by its English plural (optionLabels, below).
  get options() {
    return entityNamesWith('customizable');
  },
  get optionLabels() {
    return entityLabelsWith('customizable');
  },
  required: true,
  immutable: true,
  filterable: true,
  sortable: true,
} as const satisfies FieldDescription;

/** A name as records have one, shorter: it heads a column and a form field. */
const shortName = { ...nameField, maxLength: 100 } as const satisfies FieldDescription;

const positionField = {
  type: 'integer',
  label: 'Position',
  min: 0,
  max: 10_000,
  sortable: true,
  filterable: true,
} as const satisfies FieldDescription;

/** Named sections that custom fields are shown in, per record type. */
export const customFieldGroups = defineEntity({
  name: 'customFieldGroups',
  table: 'custom_field_groups',
  kind: 'record',
  label: 'Custom field group',
  labelPlural: 'Custom field groups',
  display: 'name',
  // From Custom data's "Groups" button.
  navigation: {
    path: '/custom-field-groups',
    order: 95,
    sidebar: false,
    // Edited like the custom data they order.
    records: { edit: 'modal', show: 'generic' },
  },
  access: manage,
  fields: {
    entity: entityField,
    name: shortName,
    position: positionField,
  },
  relations: { fields: { kind: 'hasMany', to: 'entityFieldTypes', foreignKey: 'groupId' } },
  list: { defaultShows: ['name', 'entity', 'position'], defaultSort: 'position' },
  uniques: [['entity', 'name']],
});

/**
 * The spec's "entity field types" (custom data): one custom field of one
 * record type. Its values live in the records' `custom` column under `key`,
 * and the field travels every generic path as the description
 * `customFieldDescription` makes of it.
 */
export const entityFieldTypes = defineEntity({
  name: 'entityFieldTypes',
  table: 'entity_field_types',
  kind: 'record',
  label: 'Custom field',
  labelPlural: 'Custom fields',
  display: 'name',
  navigation: {
    path: '/custom-data',
    order: 90,
    labelKey: 'nav.customData',
    records: { edit: 'modal', show: 'generic' },
  },
  pathAlias: 'custom-data',
  access: manage,
  fields: {
    entity: entityField,
    name: shortName,
    // From the id, so that renaming a field never breaks a saved view, a filter or an API client.
    key: { type: 'text', label: 'Key', generated: "'cf' || id", filterable: true, importable: false },
    type: {
      type: 'select',
      label: 'Type',
      options: customFieldTypes,
      optionLabels: customFieldTypeLabels,
      required: true,
      immutable: true,
      filterable: true,
      sortable: true,
    },
    options: { type: 'tags', label: 'Choices', filterable: true },
    groupId: {
      type: 'reference',
      to: 'customFieldGroups',
      label: 'Group',
      filterable: true,
      onDelete: 'setNull',
    },
    required: { type: 'boolean', label: 'Required', filterable: true },
    position: positionField,
    description: { type: 'longText', label: 'Help text', maxLength: 1000 },
  },
  list: { defaultShows: ['name', 'entity', 'type', 'groupId', 'required', 'position'], defaultSort: 'entity,position' },
  uniques: [['entity', 'name']],
  checks: [
    {
      name: 'entity_field_types_options_check',
      field: 'options',
      sql: "type not in ('select', 'multiSelect') or cardinality(options) > 0",
      message: 'A picklist needs at least one choice',
    },
  ],
});

/** One custom field as the definitions list answers it. */
export interface CustomFieldDefinition {
  id: number;
  entity: string;
  name: string;
  key: string;
  type: CustomFieldType;
  options?: readonly string[] | null;
  groupId?: number | null;
  required?: boolean | null;
  position?: number | null;
  description?: string | null;
}

/** The `select` of a definitions list that `withCustomFields` needs. */
export const definitionFields = [
  'entity',
  'name',
  'description',
  'key',
  'type',
  'options',
  'groupId',
  'required',
  'position',
] as const;

/** A custom field as a field description, so that it goes wherever a built-in field goes. */
export function customFieldDescription(definition: CustomFieldDefinition): FieldDescription {
  return {
    type: definition.type,
    label: definition.name,
    help: definition.description ?? undefined,
    required: Boolean(definition.required),
    options: optionTypes.has(definition.type) ? (definition.options ?? []) : undefined,
    filterable: true,
    sortable: sortableTypes.has(definition.type),
    custom: { groupId: definition.groupId ?? null, position: definition.position ?? null },
  };
}

/** True for the resources whose records carry custom fields. */
export function isCustomizable(entity: EntityDescription): boolean {
  return entity.customizable === true;
}

const described = new WeakMap<readonly CustomFieldDefinition[], Map<EntityDescription, EntityDescription>>();

/**
 * The entity with its custom fields after the built-in ones, in their
 * positions. The same object for the same definitions list, so that
 * everything cached per description (schemas, `allFields`) is built once.
 */
export function withCustomFields(
  entity: EntityDescription,
  definitions: readonly CustomFieldDefinition[],
): EntityDescription {
  if (!isCustomizable(entity)) return entity;
  let byEntity = described.get(definitions);
  if (!byEntity) {
    byEntity = new Map();
    described.set(definitions, byEntity);
  }
  const cached = byEntity.get(entity);
  if (cached) return cached;
  const own = definitions
    .filter((definition) => definition.entity === entity.name && definition.key)
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0) || a.id - b.id);
  const result =
    own.length === 0
      ? entity
      : {
          ...entity,
          fields: {
            ...entity.fields,
            ...Object.fromEntries(own.map((definition) => [definition.key, customFieldDescription(definition)])),
          },
        };
  byEntity.set(entity, result);
  return result;
}
