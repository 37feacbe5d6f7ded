import { defineEntity } from './entity.ts';

export const countries = defineEntity({
  name: 'countries',
  table: 'countries',
  kind: 'reference',
  label: 'Country',
  labelPlural: 'Countries',
  display: 'name',
  regionFlag: 'emoji',
  fields: {
    name: { type: 'text', label: 'Name', required: true, searchable: true, sortable: true, filterable: true },
    iso2: { type: 'text', label: 'ISO 3166-1 alpha-2', required: true, unique: true, filterable: true, sortable: true },
    iso3: { type: 'text', label: 'ISO 3166-1 alpha-3', required: true, unique: true, filterable: true, sortable: true },
    phoneCode: { type: 'text', label: 'Phone code', filterable: true },
    emoji: { type: 'text', label: 'Flag' },
    currency: { type: 'text', label: 'Currency', filterable: true },
  },
  relations: { states: { kind: 'hasMany', to: 'states', foreignKey: 'countryId' } },
  list: { defaultShows: ['emoji', 'name', 'iso2', 'phoneCode', 'currency'], defaultSort: 'name' },
});
