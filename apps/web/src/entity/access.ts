import { requiredPermissions } from '@data-platform/shared/entities/access';
import { findEntity } from '@data-platform/shared/entities/registry';
import type { Permission } from '@data-platform/shared/permissions';
import type { CurrentUser } from '../store/auth-slice.ts';

/** True when the user's role holds every permission named. */
export function holds(user: CurrentUser | undefined, needed: readonly Permission[]): boolean {
  const granted = user?.role?.permissions ?? [];
  return user !== undefined && needed.every((permission) => granted.includes(permission));
}

/** True when the user may list the resource (the same rule the API applies). */
export function canRead(user: CurrentUser | undefined, resource: string): boolean {
  const entity = findEntity(resource);
  return entity !== undefined && holds(user, requiredPermissions(entity, 'read'));
}
