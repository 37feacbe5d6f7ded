import { type Permission, type PermissionResource, permissionResources } from '../permissions.ts';
import type { AccessAction, EntityDescription } from './entity.ts';

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
