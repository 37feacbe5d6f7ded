import { z } from 'zod';
import { valueSchema } from '../fields/value-schemas.ts';
import { allFields, type EntityDescription, isWritable } from './entity.ts';

const cache = new WeakMap<EntityDescription, { create: z.ZodObject; update: z.ZodObject; record: z.ZodObject }>();

function build(entity: EntityDescription) {
  const create: Record<string, z.ZodType> = {};
  const update: Record<string, z.ZodType> = {};
  const record: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(allFields(entity))) {
    const value = valueSchema(field);
    record[name] = field.required || name === 'id' ? value : value.nullable();
    if (!isWritable(field)) continue;
    create[name] = field.required ? value : value.nullable().optional();
    if (!field.immutable) update[name] = (field.required ? value : value.nullable()).optional();
  }
  return {
    create: z.strictObject(create),
    update: z.strictObject(update),
    record: z.object(record),
  };
}

function schemasOf(entity: EntityDescription) {
  let schemas = cache.get(entity);
  if (!schemas) {
    schemas = build(entity);
    cache.set(entity, schemas);
  }
  return schemas;
}

/** The body of a create: writable fields only, required ones present; unknown keys refused. */
export function createSchema(entity: EntityDescription): z.ZodObject {
  return schemasOf(entity).create;
}

/** The body of an update: any writable, mutable field; unknown keys refused. */
export function updateSchema(entity: EntityDescription): z.ZodObject {
  return schemasOf(entity).update;
}

/** A whole record as the API returns it (for documentation). */
export function recordSchema(entity: EntityDescription): z.ZodObject {
  return schemasOf(entity).record;
}
