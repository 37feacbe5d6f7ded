/**
 * The parts of permission names that do not depend on which entities exist.
 * A leaf module: entity descriptions (roles) import it, and permissions.ts,
 * which derives the full list from the registry, re-exports it.
 */

export const dataActions = ['read', 'create', 'update', 'delete', 'import', 'export'] as const;
export type DataAction = (typeof dataActions)[number];

/**
 * `users:read` shows colleagues' accounts (email, status, role, sign-ins);
 * without it a user sees other users by name only. `users:manage` needs it.
 */
export const adminPermissions = ['users:read', 'users:manage', 'roles:manage', 'customFields:manage'] as const;
export type AdminPermission = (typeof adminPermissions)[number];

/** `<resource>:<action>` for every data action of every resource, resource by resource. */
export function dataPermissionsOf<R extends string>(resources: readonly R[]): `${R}:${DataAction}`[] {
  return resources.flatMap((resource) => dataActions.map((action) => `${resource}:${action}` as const));
}
