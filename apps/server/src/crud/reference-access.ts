import { requiredPermissions } from '@data-platform/shared/entities/access';
import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import type { Permission } from '@data-platform/shared/permissions';
import { type Actor, missingPermissions } from '../auth/actor.ts';

/**
 * The permissions the actor lacks to point the named fields of `entity` at
 * other records. Setting a reference (by id in a body, by name in an import)
 * needs the right to read what it points at: otherwise the answer ("no such
 * firm", or a match by name) would tell a user which records exist in an
 * entity they may not see. Keyed by field name; fields that are not
 * references, or whose target anyone may read, are left out.
 */
export function unreadableReferences(
  actor: Actor,
  entity: EntityDescription,
  fieldNames: Iterable<string>,
): Record<string, Permission[]> {
  const fields = allFields(entity);
  const refused: Record<string, Permission[]> = {};
  for (const name of fieldNames) {
    const field = fields[name];
    if (field?.type !== 'reference' || !field.to) continue;
    const target = findEntity(field.to);
    if (!target) continue;
    const missing = missingPermissions(actor, requiredPermissions(target, 'read'));
    if (missing.length > 0) refused[name] = missing;
  }
  return refused;
}
