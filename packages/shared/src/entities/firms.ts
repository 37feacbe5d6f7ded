import { domainFromWebsite, headquarters, nameField } from './common-fields.ts';
import { defineEntity } from './entity.ts';
import { fundStrategies } from './picklists.ts';

export const firms = defineEntity({
  name: 'firms',
  table: 'firms',
  kind: 'record',
  label: 'Firm',
  labelPlural: 'Firms',
  display: 'name',
  permissions: true,
  customizable: true,
  attachable: true,
  navigation: { path: '/firms', order: 40, records: { edit: 'page', show: 'generic' } },
  dashboard: { count: true },
  seed: true,
  fields: {
    name: nameField,
    type: {
      type: 'select',
      label: 'Type',
      options: [
        'VC firm',
        'PE firm',
        'Fund of funds manager',
        'Family office',
        'Bank',
        'Asset manager',
        'Placement agent',
        'Corporate VC',
        'Advisor',
        'Other',
      ],
      filterable: true,
      sortable: true,
    },
    website: { type: 'url', label: 'Website', filterable: true },
    domain: domainFromWebsite,
    ...headquarters,
    aum: { type: 'money', label: 'AUM', filterable: true, sortable: true },
    foundedYear: { type: 'year', label: 'Founded', notFuture: true, filterable: true, sortable: true },
    description: { type: 'longText', label: 'Description', filterable: true },
    strategies: { type: 'multiSelect', label: 'Strategies', options: fundStrategies, filterable: true },
  },
  relations: {
    funds: { kind: 'hasMany', to: 'funds', foreignKey: 'firmId' },
    contacts: { kind: 'hasMany', to: 'contacts', foreignKey: 'firmId' },
  },
  list: { defaultShows: ['name', 'type', 'hqCountryId', 'city', 'aum', 'strategies'], defaultSort: 'name' },
  indexes: [['hqCountryId', 'name']],
  dedupKeys: ['domain', 'name'],
});
