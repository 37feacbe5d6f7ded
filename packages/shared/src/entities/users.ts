import { defineEntity } from './entity.ts';

/** invited: mailed a link; pending: asked for access; deleted: kept so that their records still name them. */
export const userStatuses = ['invited', 'pending', 'active', 'disabled', 'rejected', 'deleted'] as const;
export type UserStatus = (typeof userStatuses)[number];

const personName = (label: string) =>
  ({ type: 'text', label, searchable: true, sortable: true, filterable: true, maxLength: 150 }) as const;

export const users = defineEntity({
  name: 'users',
  table: 'users',
  kind: 'record',
  label: 'User',
  labelPlural: 'Users',
  display: 'fullName',
  navigation: { path: '/users', order: 80, records: { edit: 'modal', show: 'own' } },
  seed: true,
  // Created by invitation or access request, changed through the users routes.
  operations: ['list', 'get'],
  ownOperations: ['create', 'update', 'delete'],
  access: { read: null, create: 'users:manage', update: 'users:manage', delete: 'users:manage' },
  // Everyone names colleagues (created by, owner pickers); only users who have
  // accepted, since an invited user's name is still their email.
  limitedRead: {
    permission: 'users:read',
    fields: ['fullName'],
    rows: { field: 'status', oneOf: ['active', 'disabled', 'deleted'] },
  },
  fields: {
    email: {
      type: 'email',
      label: 'Email',
      required: true,
      unique: true,
      searchable: true,
      sortable: true,
      filterable: true,
    },
    firstName: personName('First name'),
    lastName: personName('Last name'),
    fullName: {
      type: 'text',
      label: 'Name',
      required: true,
      generated: "coalesce(nullif(trim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')), ''), email)",
      searchable: true,
      sortable: true,
      filterable: true,
      importable: false,
    },
    status: {
      type: 'select',
      label: 'Status',
      options: userStatuses,
      // Shown as words, not the stored values (lists read "Active", not "active").
      optionLabels: {
        invited: 'Invited',
        pending: 'Pending',
        active: 'Active',
        disabled: 'Disabled',
        rejected: 'Rejected',
        deleted: 'Deleted',
      },
      required: true,
      filterable: true,
      sortable: true,
    },
    roleId: { type: 'reference', to: 'roles', label: 'Role', filterable: true, onDelete: 'restrict' },
    lastSignInAt: { type: 'datetime', label: 'Last sign-in', sortable: true, filterable: true, serverOwned: true },
  },
  list: { defaultShows: ['fullName', 'email', 'roleId', 'status', 'lastSignInAt'], defaultSort: 'fullName' },
  dedupKeys: ['email'],
});
