import { attachedToFields } from './attached-to.ts';
import { owner } from './common-fields.ts';
import { defineEntity } from './entity.ts';

/** Something one person is to do about one record, by a date: "My open tasks" on the home page. */
export const tasks = defineEntity({
  name: 'tasks',
  table: 'tasks',
  kind: 'record',
  label: 'Task',
  labelPlural: 'Tasks',
  display: 'title',
  permissions: true,
  navigation: { path: '/tasks', order: 75, records: { edit: 'page', show: 'generic' } },
  seed: true,
  attachedTo: { entityField: 'entity', idField: 'recordId' },
  ownedBy: 'ownerId',
  fields: {
    title: {
      type: 'text',
      label: 'Title',
      required: true,
      searchable: true,
      sortable: true,
      filterable: true,
      maxLength: 300,
    },
    details: { type: 'longText', label: 'Details', maxLength: 20_000 },
    dueDate: { type: 'date', label: 'Due date', filterable: true, sortable: true },
    ...owner,
    status: {
      type: 'select',
      label: 'Status',
      options: ['Open', 'Done'],
      required: true,
      filterable: true,
      sortable: true,
    },
    ...attachedToFields({ required: true, writable: 'once' }),
  },
  list: { defaultShows: ['title', 'status', 'dueDate', 'ownerId', 'entity', 'recordId'], defaultSort: 'dueDate' },
  indexes: [
    // "My open tasks": one owner's tasks of one status, by due date.
    ['ownerId', 'status', 'dueDate'],
    ['entity', 'recordId', 'dueDate'],
  ],
});
