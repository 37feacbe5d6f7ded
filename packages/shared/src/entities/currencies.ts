import { defineEntity } from './entity.ts';

export const currencies = defineEntity({
  name: 'currencies',
  table: 'currencies',
  kind: 'reference',
  label: 'Currency',
  labelPlural: 'Currencies',
  display: 'code',
  fields: {
    code: {
      type: 'text',
      label: 'Code',
      required: true,
      unique: true,
      searchable: true,
      sortable: true,
      filterable: true,
    },
    name: { type: 'text', label: 'Name', required: true, searchable: true, sortable: true, filterable: true },
    minorUnits: { type: 'integer', label: 'Minor units', filterable: true },
  },
  list: { defaultShows: ['code', 'name', 'minorUnits'], defaultSort: 'code' },
});
