/** What a role can be allowed to do: `resource:action` for data, plus administration rights. */
import { permissionedEntityNames } from './entities/registry.ts';
import { type AdminPermission, adminPermissions, type DataAction, dataPermissionsOf } from './permission-names.ts';

export { type AdminPermission, adminPermissions, type DataAction, dataActions } from './permission-names.ts';

/** The entities with data permissions of their own (flag `permissions`), in sidebar order. */
export const permissionResources: readonly PermissionResource[] = permissionedEntityNames;
/**
 * A resource name. Not the union of the flagged names: entity descriptions
 * name permissions (`access`, `limitedRead`), so a type computed from the
 * registry's descriptions would refer to itself. `isPermission` checks names
 * at run time, and a test checks every permission a description names.
 */
export type PermissionResource = string;

export type Permission = `${PermissionResource}:${DataAction}` | AdminPermission;

export const dataPermissions: readonly Permission[] = dataPermissionsOf(permissionResources);

export const allPermissions: readonly Permission[] = [...dataPermissions, ...adminPermissions];

export interface BuiltInRole {
  name: string;
  description: string;
  permissions: readonly Permission[];
}

export const ADMINISTRATOR = 'Administrator';

/**
 * Roles every installation has; Administrator can be neither deleted nor
 * narrowed. Bootstrap gives Administrator every permission at each start; a
 * migration that adds an entity with permissions grants Editor and Viewer
 * theirs (see bootstrap.ts).
 */
export const builtInRoles: readonly BuiltInRole[] = [
  {
    name: ADMINISTRATOR,
    description: 'Everything, including users, roles and custom fields.',
    permissions: allPermissions,
  },
  { name: 'Editor', description: 'Reads and changes all data; no administration.', permissions: dataPermissions },
  {
    name: 'Viewer',
    description: 'Reads and exports all data.',
    permissions: dataPermissions.filter((p) => p.endsWith(':read') || p.endsWith(':export')),
  },
];

export function isPermission(value: string): value is Permission {
  return (allPermissions as readonly string[]).includes(value);
}
