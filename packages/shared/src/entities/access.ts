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
