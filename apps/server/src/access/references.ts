import { requiredPermissions } from '@data-platform/shared/entities/access';
import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import type { Permission } from '@data-platform/shared/permissions';
import { type Actor, missingPermissions } from '../auth/actor.ts';
import { forbidden, refused as refusedError } from '../domain/errors.ts';

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

/** How a refusal names what was refused: the verb of the message, a hint after it, and each field's message. */
export interface ReferenceRefusal {
  /** `setting` (a body), `importing` (a file's columns). */
  doing: string;
  hint?: string;
  field(name: string, missing: readonly Permission[]): string;
}

/**
 * 403 naming the fields and the permissions, before the database is asked,
 * when `fieldNames` point references at records the actor may not read (see
 * unreadableReferences).
 */
export function assertReferencesReadable(
  actor: Actor,
  entity: EntityDescription,
  fieldNames: Iterable<string>,
  refusal: ReferenceRefusal,
): void {
  const refused = Object.entries(unreadableReferences(actor, entity, fieldNames));
  if (refused.length === 0) return;
  const missing = [...new Set(refused.flatMap(([, permissions]) => permissions))];
  throw refusedError(
    `Your role does not allow this: ${refusal.doing} ${refused.map(([name]) => name).join(', ')} needs ${missing.join(', ')}${refusal.hint ?? ''}`,
    Object.fromEntries(refused.map(([name, permissions]) => [name, refusal.field(name, permissions)])),
  );
}

/**
 * Refused, naming the permissions, when a row attached to records (a note, a
 * file) would hang on a record type the actor may not read.
 */
export function assertMayAttachTo(actor: Actor, target: EntityDescription): void {
  const missing = missingPermissions(actor, requiredPermissions(target, 'read'));
  if (missing.length > 0) throw forbidden(missing);
}
