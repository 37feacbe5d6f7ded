import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';

/**
 * A resource's entity description. Only the signed-in screens load the
 * descriptions; the router, its guards and the sidebar read the entity
 * manifest (entity-manifest.ts) instead.
 */
export function describedEntity(resource: string): EntityDescription {
  const entity = findEntity(resource);
  if (!entity) throw new Error(`No entity description for ${resource}`);
  return entity;
}
