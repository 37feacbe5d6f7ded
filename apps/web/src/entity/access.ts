import { isPermissionResource, requiredPermissions } from '@data-platform/shared/entities/access';
import { type AccessAction, operationsOf } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import type { Permission } from '@data-platform/shared/permissions';
import type { CurrentUser } from '../store/auth-slice.ts';

/** True when the user's role holds every permission named. */
export function holds(user: CurrentUser | undefined, needed: readonly Permission[]): boolean {
  const granted = user?.role?.permissions ?? [];
  return user !== undefined && needed.every((permission) => granted.includes(permission));
}

/**
 * True when the user may open the resource's screens: the API's rule for
 * reading it, and the permission that shows its rows in full where others see
 * them limited (users by name only, without `users:read`).
 */
export function canRead(user: CurrentUser | undefined, resource: string): boolean {
  const entity = findEntity(resource);
  const full = entity?.limitedRead ? [entity.limitedRead.permission] : [];
  return entity !== undefined && holds(user, [...requiredPermissions(entity, 'read'), ...full]);
}

/** True when the API offers the action on the resource (generic or own routes) and the user's role allows it. */
export function can(user: CurrentUser | undefined, resource: string, action: AccessAction): boolean {
  const entity = findEntity(resource);
  if (!entity) return false;
  const operation = action === 'read' ? 'list' : action;
  const offered =
    operationsOf(entity).includes(operation) || (operation !== 'list' && entity.ownOperations?.includes(operation));
  return Boolean(offered) && holds(user, requiredPermissions(entity, action));
}

/** True when the generic routes serve the action, so the generic forms (create, bulk edit) can do it. */
export function genericallyOffered(resource: string, action: Exclude<AccessAction, 'read'>): boolean {
  const entity = findEntity(resource);
  return entity !== undefined && operationsOf(entity).includes(action);
}

/** True when the resource can be exported (`GET /{resource}/export`) and the user's role allows it. */
export function canExport(user: CurrentUser | undefined, resource: string): boolean {
  return isPermissionResource(resource) && canRead(user, resource) && holds(user, [`${resource}:export`]);
}

/** True when records of the resource can be imported (`POST /{resource}/import`) and the user's role allows it. */
export function canImport(user: CurrentUser | undefined, resource: string): boolean {
  return (
    isPermissionResource(resource) &&
    genericallyOffered(resource, 'create') &&
    can(user, resource, 'create') &&
    holds(user, [`${resource}:import`])
  );
}
