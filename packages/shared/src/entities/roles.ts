import { adminPermissions, dataPermissionsOf } from '../permission-names.ts';
import { defineEntity, entityNamesWith } from './entity.ts';

let allPermissionNames: readonly string[] | undefined;

export const roles = defineEntity({
  name: 'roles',
  table: 'roles',
  kind: 'record',
  label: 'Role',
  labelPlural: 'Roles',
  display: 'name',
  // Changed through the roles routes, which keep built-in roles as they are.
  operations: ['list', 'get'],
  ownOperations: ['create', 'update', 'delete'],
  access: { read: null, create: 'roles:manage', update: 'roles:manage', delete: 'roles:manage' },
  fields: {
    name: {
      type: 'text',
      label: 'Name',
      required: true,
      unique: true,
      searchable: true,
      sortable: true,
      filterable: true,
      maxLength: 100,
    },
    description: { type: 'longText', label: 'Description', maxLength: 2000 },
    permissions: {
      type: 'multiSelect',
      label: 'Permissions',
      // permissions.ts's allPermissions, which this module cannot import: it derives from the registry, which imports this.
      get options(): readonly string[] {
        allPermissionNames ??= [...dataPermissionsOf(entityNamesWith('permissions')), ...adminPermissions];
        return allPermissionNames;
      },
      filterable: true,
    },
    builtIn: { type: 'boolean', label: 'Built in', serverOwned: true, filterable: true, sortable: true },
  },
  list: { defaultShows: ['name', 'description', 'builtIn'], defaultSort: 'name' },
});
