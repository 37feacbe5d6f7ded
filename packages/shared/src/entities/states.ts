import { defineEntity } from './entity.ts';

export const states = defineEntity({
  name: 'states',
  table: 'states',
  kind: 'reference',
  label: 'State',
  labelPlural: 'States',
  display: 'name',
  fields: {
    countryId: {
      type: 'reference',
      to: 'countries',
      label: 'Country',
      required: true,
      filterable: true,
      onDelete: 'cascade',
    },
    name: { type: 'text', label: 'Name', required: true, searchable: true, sortable: true, filterable: true },
    code: { type: 'text', label: 'Code', filterable: true, sortable: true },
  },
  list: { defaultShows: ['name', 'code', 'countryId'], defaultSort: 'name' },
  indexes: [['countryId', 'name']],
});
