import { defineEntity } from './entity.ts';
import { attachableEntities } from './picklists.ts';

export const notes = defineEntity({
  name: 'notes',
  table: 'notes',
  kind: 'record',
  label: 'Note',
  labelPlural: 'Notes',
  display: 'body',
  attachedTo: { entityField: 'entity', idField: 'recordId' },
  fields: {
    entity: {
      type: 'select',
      label: 'Record type',
      options: attachableEntities,
      required: true,
      filterable: true,
      immutable: true,
    },
    recordId: { type: 'reference', label: 'Record', required: true, filterable: true, immutable: true },
    body: { type: 'longText', label: 'Note', required: true, searchable: true, maxLength: 50_000 },
  },
  list: { defaultShows: ['body', 'createdById', 'createdAt'], defaultSort: '-createdAt' },
  indexes: [['entity', 'recordId', 'createdAt']],
});
