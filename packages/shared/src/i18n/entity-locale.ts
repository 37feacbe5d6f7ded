import { allFields, type EntityDescription } from '../entities/entity.ts';

export interface EntityLocale {
  /** `resources.<entity>.one` / `.other`: the entity's name, singular and plural. */
  resources: Record<string, { one: string; other: string }>;
  /** `fields.<entity>.<field>`: each field's label. */
  fields: Record<string, Record<string, string>>;
}

/**
 * The English entity vocabulary, derived from the descriptions: the web app's
 * `entities` namespace in English is exactly this (a test holds it so), and
 * every other language translates the same keys.
 */
export function entityLocale(list: readonly EntityDescription[]): EntityLocale {
  const locale: EntityLocale = { resources: {}, fields: {} };
  for (const entity of list) {
    locale.resources[entity.name] = { one: entity.label, other: entity.labelPlural };
    locale.fields[entity.name] = Object.fromEntries(
      Object.entries(allFields(entity)).map(([name, field]) => [name, field.label]),
    );
  }
  return locale;
}

/** Every picklist value of every entity, keyed by itself, in English: the `options` namespace. */
export function optionLocale(list: readonly EntityDescription[]): Record<string, string> {
  const options: Record<string, string> = {};
  for (const entity of list) {
    for (const field of Object.values(allFields(entity)))
      for (const value of field.options ?? []) options[value] = field.optionLabels?.[value] ?? options[value] ?? value;
  }
  return options;
}
