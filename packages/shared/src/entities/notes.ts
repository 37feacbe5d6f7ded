import { attachedToFields } from './attached-to.ts';
import { defineEntity } from './entity.ts';

export const notes = defineEntity({
  name: 'notes',
  table: 'notes',
  kind: 'record',
  label: 'Note',
  labelPlural: 'Notes',
  display: 'body',
  permissions: true,
  seed: true,
  attachedTo: { entityField: 'entity', idField: 'recordId' },
  fields: {
    ...attachedToFields({ required: true, writable: 'once' }),
    body: { type: 'longText', label: 'Note', required: true, searchable: true, maxLength: 50_000 },
  },
  list: { defaultShows: ['body', 'createdById', 'createdAt'], defaultSort: '-createdAt' },
  indexes: [['entity', 'recordId', 'createdAt']],
});
