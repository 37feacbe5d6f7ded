import { defineEntity } from './entity.ts';
import { attachableEntities } from './picklists.ts';

/** Uploaded files. Rows are created by the upload endpoint, which stores the bytes under DATA_DIR. */
export const files = defineEntity({
  name: 'files',
  table: 'files',
  kind: 'record',
  label: 'File',
  labelPlural: 'Files',
  display: 'name',
  attachedTo: { entityField: 'entity', idField: 'recordId' },
  storesBytes: true,
  operations: ['list', 'get', 'update', 'delete'],
  fields: {
    entity: {
      type: 'select',
      label: 'Record type',
      options: attachableEntities,
      required: true,
      filterable: true,
      serverOwned: true,
    },
    recordId: { type: 'reference', label: 'Record', required: true, filterable: true, serverOwned: true },
    name: {
      type: 'text',
      label: 'Name',
      required: true,
      searchable: true,
      sortable: true,
      filterable: true,
      maxLength: 255,
    },
    size: { type: 'integer', label: 'Size', required: true, sortable: true, filterable: true, serverOwned: true },
    contentType: {
      type: 'text',
      label: 'Content type',
      required: true,
      filterable: true,
      serverOwned: true,
      maxLength: 255,
    },
    sha256: { type: 'text', label: 'SHA-256', required: true, serverOwned: true, maxLength: 64 },
  },
  list: { defaultShows: ['name', 'size', 'contentType', 'createdById', 'createdAt'], defaultSort: '-createdAt' },
  indexes: [['entity', 'recordId', 'createdAt']],
});
