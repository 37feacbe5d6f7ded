import { defineEntity } from './entity.ts';

const personName = (label: string) =>
  ({ type: 'text', label, searchable: true, sortable: true, filterable: true, maxLength: 150 }) as const;

export const users = defineEntity({
  name: 'users',
  table: 'users',
  kind: 'record',
  label: 'User',
  labelPlural: 'Users',
  display: 'fullName',
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
      options: ['invited', 'pending', 'active', 'disabled', 'rejected'],
      required: true,
      filterable: true,
      sortable: true,
    },
    lastSignInAt: { type: 'datetime', label: 'Last sign-in', sortable: true, filterable: true, serverOwned: true },
  },
  list: { defaultShows: ['fullName', 'email', 'status', 'lastSignInAt'], defaultSort: 'fullName' },
  dedupKeys: ['email'],
});
