import { attachedToFields } from './attached-to.ts';
import { defineEntity } from './entity.ts';

/** Uploaded files. Rows are created by the upload endpoint, which stores the bytes under DATA_DIR. */
export const files = defineEntity({
  name: 'files',
  table: 'files',
  kind: 'record',
  label: 'File',
  labelPlural: 'Files',
  display: 'name',
  permissions: true,
  attachedTo: { entityField: 'entity', idField: 'recordId' },
  storesBytes: true,
  operations: ['list', 'get', 'update', 'delete'],
  // Created by upload (POST /api/v1/files, multipart), not by the generic create.
  ownOperations: ['create'],
  fields: {
    ...attachedToFields({ required: true, writable: 'server' }),
    name: {
      type: 'text',
      label: 'Name',
      required: true,
      searchable: true,
      sortable: true,
      filterable: true,
      maxLength: 255,
    },
    size: {
      type: 'integer',
      label: 'Size',
      unit: 'byte',
      required: true,
      sortable: true,
      filterable: true,
      serverOwned: true,
    },
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
