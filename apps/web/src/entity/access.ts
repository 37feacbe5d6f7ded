import {
  exportPermissions,
  type HeldPermissions,
  importPermissions,
  mayAct,
  permissionsLacking,
  readsInFull,
} from '@data-platform/shared/entities/access';
import { type AccessAction, operationsOf } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import type { Permission } from '@data-platform/shared/permissions';
import type { CurrentUser } from '../store/auth-slice.ts';

// The web app only hints: it offers what the server's rules (the same shared
// functions, in packages/shared/src/entities/access.ts) would allow.

/** The user's permissions as the shared rules take them; none when signed out. */
function heldBy(user: CurrentUser | undefined): HeldPermissions | undefined {
  return user ? new Set(user.role?.permissions ?? []) : undefined;
}

/** True when the user's role holds every permission named. */
export function holds(user: CurrentUser | undefined, needed: readonly Permission[]): boolean {
  const held = heldBy(user);
  return held !== undefined && permissionsLacking(held, needed).length === 0;
}

/**
 * True when the user may open the resource's screens: the API's rule for
 * reading it, and the permission that shows its rows in full where others see
 * them limited (users by name only, without `users:read`).
 */
export function canRead(user: CurrentUser | undefined, resource: string): boolean {
  const entity = findEntity(resource);
  const held = heldBy(user);
  return entity !== undefined && held !== undefined && readsInFull(entity, held);
}

/** True when the API offers the action on the resource (generic or own routes) and the user's role allows it. */
export function can(user: CurrentUser | undefined, resource: string, action: AccessAction): boolean {
  const entity = findEntity(resource);
  const held = heldBy(user);
  if (!entity || !held) return false;
  const operation = action === 'read' ? 'list' : action;
  const offered =
    operationsOf(entity).includes(operation) || (operation !== 'list' && entity.ownOperations?.includes(operation));
  return Boolean(offered) && mayAct(entity, action, held);
}

/** True when the generic routes serve the action, so the generic forms (create, bulk edit) can do it. */
export function genericallyOffered(resource: string, action: Exclude<AccessAction, 'read'>): boolean {
  const entity = findEntity(resource);
  return entity !== undefined && operationsOf(entity).includes(action);
}

/** True when the resource can be exported (`GET /{resource}/export`) and the user's role allows it. */
export function canExport(user: CurrentUser | undefined, resource: string): boolean {
  const entity = findEntity(resource);
  const needed = entity && exportPermissions(entity);
  return needed !== undefined && canRead(user, resource) && holds(user, needed);
}

/** True when records of the resource can be imported (`POST /{resource}/import`) and the user's role allows it. */
export function canImport(user: CurrentUser | undefined, resource: string): boolean {
  const entity = findEntity(resource);
  const needed = entity && importPermissions(entity);
  return needed !== undefined && holds(user, needed);
}
