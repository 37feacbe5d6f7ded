/**
 * Who may read and do what, as rules over the entity descriptions and a
 * role's permissions. The server enforces them (apps/server/src/access/) and
 * the web app asks the same functions to decide what it offers
 * (apps/web/src/entity/access.ts), so the two cannot drift apart.
 */
import { type Permission, type PermissionResource, permissionResources } from '../permissions.ts';
import { type AccessAction, type EntityDescription, operationsOf } from './entity.ts';
import { findEntity } from './registry.ts';

/** The permissions a role holds. */
export type HeldPermissions = ReadonlySet<Permission>;

/** True for the resources with permissions of their own (`companies:read`, `companies:export`, ...). */
export function isPermissionResource(name: string): name is PermissionResource {
  return (permissionResources as readonly string[]).includes(name);
}

/**
 * The permissions an action on an entity needs (all of them); an empty list
 * means any signed-in user may. Records use `<name>:<action>`; link
 * collections need the linked entities' read (to read) or update (to change)
 * permissions; reference data is readable by everyone signed in.
 */
export function requiredPermissions(entity: EntityDescription, action: AccessAction): Permission[] {
  if (entity.access && Object.hasOwn(entity.access, action)) {
    const permission = entity.access[action];
    return permission ? [permission] : [];
  }
  if (entity.kind === 'reference' && action === 'read') return [];
  if (entity.kind === 'link') {
    const sides = Object.values(entity.fields).flatMap((f) =>
      f.type === 'reference' && f.required && f.to ? [f.to] : [],
    );
    const sideAction = action === 'read' ? 'read' : 'update';
    return sides.map((side) => {
      if (!isPermissionResource(side)) throw new Error(`${entity.name} links ${side}, which has no permissions`);
      return `${side}:${sideAction}` as Permission;
    });
  }
  if (isPermissionResource(entity.name)) return [`${entity.name}:${action}`];
  throw new Error(`${entity.name} has no access rule for ${action}`);
}

const limitedViews = new WeakMap<EntityDescription, EntityDescription>();

/**
 * The entity as a reader holding `permissions` sees it: without the fields
 * its `limitedRead` keeps from readers who lack the permission (see there).
 * Parsing a query against this view refuses those fields; building rows from
 * it leaves them out.
 */
export function readableDescription(
  entity: EntityDescription,
  permissions: ReadonlySet<Permission>,
): EntityDescription {
  const limit = entity.limitedRead;
  if (!limit || permissions.has(limit.permission)) return entity;
  const cached = limitedViews.get(entity);
  if (cached) return cached;
  const kept = (name: string) => limit.fields.includes(name);
  const view: EntityDescription = {
    ...entity,
    fields: Object.fromEntries(Object.entries(entity.fields).filter(([name]) => kept(name))),
    list: { ...entity.list, defaultShows: entity.list.defaultShows.filter(kept) },
    dedupKeys: entity.dedupKeys?.filter(kept),
  };
  limitedViews.set(entity, view);
  return view;
}

/** The permissions of `needed` that `held` lacks, in the order needed. */
export function permissionsLacking(held: HeldPermissions, needed: readonly Permission[]): Permission[] {
  return needed.filter((permission) => !held.has(permission));
}

/** Whether a role holding `held` may take the action on the entity (see requiredPermissions). */
export function mayAct(entity: EntityDescription, action: AccessAction, held: HeldPermissions): boolean {
  return permissionsLacking(held, requiredPermissions(entity, action)).length === 0;
}

/**
 * Whether the role reads the entity whole: it may read it, and holds the
 * permission its `limitedRead` asks to see every row and field (users by
 * name only, without `users:read`).
 */
export function readsInFull(entity: EntityDescription, held: HeldPermissions): boolean {
  return mayAct(entity, 'read', held) && (!entity.limitedRead || held.has(entity.limitedRead.permission));
}

/**
 * The record types whose attached rows (notes and files on a record) a role
 * may read: those whose records it may read. A note on an investor does not
 * exist for someone who cannot read investors.
 */
export function readableAttachmentTypes(entity: EntityDescription, held: HeldPermissions): string[] {
  if (!entity.attachedTo) return [];
  const field = entity.fields[entity.attachedTo.entityField];
  return (field?.options ?? []).filter((name) => {
    const target = findEntity(name);
    return target !== undefined && mayAct(target, 'read', held);
  });
}

/** The permissions an export of the entity's records needs (reading them, and `<name>:export`); none when it has no export. */
export function exportPermissions(entity: EntityDescription): Permission[] | undefined {
  if (!isPermissionResource(entity.name)) return undefined;
  return [...requiredPermissions(entity, 'read'), `${entity.name}:export`];
}

/**
 * The permissions an import of the entity's records from a file needs
 * (creating them, and `<name>:import`); none when it has no import: only
 * entities with permissions of their own that the generic routes create, and
 * not rows over stored bytes (a spreadsheet row cannot bring them).
 */
export function importPermissions(entity: EntityDescription): Permission[] | undefined {
  if (!isPermissionResource(entity.name) || !operationsOf(entity).includes('create') || entity.storesBytes) {
    return undefined;
  }
  return [...requiredPermissions(entity, 'create'), `${entity.name}:import`];
}
