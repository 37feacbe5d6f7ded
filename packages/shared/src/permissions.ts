/** What a role can be allowed to do: `resource:action` for data, plus administration rights. */

export const permissionResources = [
  'companies',
  'funds',
  'firms',
  'contacts',
  'deals',
  'investors',
  'fundPerformances',
  'notes',
  'files',
] as const;
export type PermissionResource = (typeof permissionResources)[number];

export const dataActions = ['read', 'create', 'update', 'delete', 'import', 'export'] as const;
export type DataAction = (typeof dataActions)[number];

/**
 * `users:read` shows colleagues' accounts (email, status, role, sign-ins);
 * without it a user sees other users by name only. `users:manage` needs it.
 */
export const adminPermissions = ['users:read', 'users:manage', 'roles:manage', 'customFields:manage'] as const;

export type Permission = `${PermissionResource}:${DataAction}` | (typeof adminPermissions)[number];

export const dataPermissions: readonly Permission[] = permissionResources.flatMap((resource) =>
  dataActions.map((action) => `${resource}:${action}` as Permission),
);

export const allPermissions: readonly Permission[] = [...dataPermissions, ...adminPermissions];

export interface BuiltInRole {
  name: string;
  description: string;
  permissions: readonly Permission[];
}

export const ADMINISTRATOR = 'Administrator';

/** Roles every installation has; Administrator can be neither deleted nor narrowed. */
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
