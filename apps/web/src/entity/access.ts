import type { AccessAction } from '@data-platform/shared/entities/entity';
import { adminPermissions, dataPermissionsOf } from '@data-platform/shared/permission-names';
import type { Permission } from '@data-platform/shared/permissions';
import type { CurrentUser } from '../store/auth-slice.ts';
import type { ManifestEntity } from './derive-entity-manifest.ts';
import { entityManifest } from './entity-manifest.ts';

// The web app only hints: it offers what the server's rules would allow. The
// permissions each action needs come from the same shared functions
// (packages/shared/src/entities/access.ts), applied to the descriptions when
// the entity manifest is written (entity-manifest.ts), so that the sign-in
// screen's guards load no description.

/** Every permission a role can hold (permissions.ts's list): data permissions of each resource, then administration. */
export const allPermissions: readonly Permission[] = [
  ...dataPermissionsOf(entityManifest.permissionResources),
  ...adminPermissions,
];

/** The user's permissions; none when signed out. */
function heldBy(user: CurrentUser | undefined): ReadonlySet<Permission> | undefined {
  return user ? new Set(user.role?.permissions ?? []) : undefined;
}

const holdsAll = (held: ReadonlySet<Permission>, needed: readonly Permission[]) =>
  needed.every((permission) => held.has(permission));

function manifestEntity(resource: string): ManifestEntity | undefined {
  return Object.hasOwn(entityManifest.entities, resource) ? entityManifest.entities[resource] : undefined;
}

/** The shared mayAct: the role holds what the action needs (an action without an access rule is an error, as there). */
function mayAct(resource: string, entity: ManifestEntity, action: AccessAction, held: ReadonlySet<Permission>) {
  const needed = entity.needs[action];
  if (!needed) throw new Error(`${resource} has no access rule for ${action}`);
  return holdsAll(held, needed);
}

/** True when the user's role holds every permission named. */
export function holds(user: CurrentUser | undefined, needed: readonly Permission[]): boolean {
  const held = heldBy(user);
  return held !== undefined && holdsAll(held, needed);
}

/**
 * True when the user may open the resource's screens: the API's rule for
 * reading it, and the permission that shows its rows in full where others see
 * them limited (users by name only, without `users:read`).
 */
export function canRead(user: CurrentUser | undefined, resource: string): boolean {
  const entity = manifestEntity(resource);
  const held = heldBy(user);
  if (!entity || !held) return false;
  return mayAct(resource, entity, 'read', held) && (!entity.fullReadNeeds || held.has(entity.fullReadNeeds));
}

/** True when the API offers the action on the resource (generic or own routes) and the user's role allows it. */
export function can(user: CurrentUser | undefined, resource: string, action: AccessAction): boolean {
  const entity = manifestEntity(resource);
  const held = heldBy(user);
  if (!entity || !held) return false;
  const operation = action === 'read' ? 'list' : action;
  const offered =
    entity.operations.includes(operation) || (operation !== 'list' && entity.ownOperations?.includes(operation));
  return Boolean(offered) && mayAct(resource, entity, action, held);
}

/** True when the generic routes serve the action, so the generic forms (create, bulk edit) can do it. */
export function genericallyOffered(resource: string, action: Exclude<AccessAction, 'read'>): boolean {
  return manifestEntity(resource)?.operations.includes(action) ?? false;
}

/** True when the resource can be exported (`GET /{resource}/export`) and the user's role allows it. */
export function canExport(user: CurrentUser | undefined, resource: string): boolean {
  const needed = manifestEntity(resource)?.exportNeeds;
  return needed !== undefined && canRead(user, resource) && holds(user, needed);
}

/** True when records of the resource can be imported (`POST /{resource}/import`) and the user's role allows it. */
export function canImport(user: CurrentUser | undefined, resource: string): boolean {
  const needed = manifestEntity(resource)?.importNeeds;
  return needed !== undefined && holds(user, needed);
}

/** True when the user may import records of at least one kind: the Imports screen lists what they imported. */
export function canImportAny(user: CurrentUser | undefined): boolean {
  return Object.keys(entityManifest.entities).some((resource) => canImport(user, resource));
}
