import { nameField } from './common-fields.ts';
import { defineEntity } from './entity.ts';
import { fundStrategies, geographies, industries } from './picklists.ts';

const fundAmount = (label: string) =>
  ({ type: 'amount', label, currencyField: 'currency', min: 0, filterable: true, sortable: true }) as const;
const fundPercent = (label: string) =>
  ({ type: 'percent', label, min: 0, max: 100, filterable: true, sortable: true }) as const;

export const funds = defineEntity({
  name: 'funds',
  table: 'funds',
  kind: 'record',
  label: 'Fund',
  labelPlural: 'Funds',
  display: 'name',
  permissions: true,
  customizable: true,
  attachable: true,
  navigation: { path: '/funds', order: 20, records: { edit: 'page', show: 'generic' } },
  dashboard: { count: true, breakdowns: ['status'] },
  seed: true,
  fields: {
    name: nameField,
    firmId: { type: 'reference', to: 'firms', label: 'Manager', filterable: true, onDelete: 'setNull' },
    numberInSeries: { type: 'integer', label: 'Number in series', min: 1, max: 100, filterable: true, sortable: true },
    vintageYear: { type: 'year', label: 'Vintage year', filterable: true, sortable: true },
    strategy: { type: 'select', label: 'Strategy', options: fundStrategies, filterable: true, sortable: true },
    status: {
      type: 'select',
      label: 'Status',
      options: ['Pre-marketing', 'Fundraising', 'First close', 'Final close', 'Investing', 'Harvesting', 'Liquidated'],
      filterable: true,
      sortable: true,
    },
    currency: { type: 'currency', label: 'Currency', required: true, filterable: true, sortable: true },
    targetSize: fundAmount('Target size'),
    hardCap: fundAmount('Hard cap'),
    finalSize: fundAmount('Final size'),
    firstCloseDate: { type: 'date', label: 'First close date', filterable: true, sortable: true },
    finalCloseDate: { type: 'date', label: 'Final close date', filterable: true, sortable: true },
    domicile: { type: 'text', label: 'Domicile', filterable: true, sortable: true, maxLength: 200 },
    geographyFocus: { type: 'multiSelect', label: 'Geography focus', options: geographies, filterable: true },
    sectorFocus: { type: 'multiSelect', label: 'Sector focus', options: industries, filterable: true },
    managementFeePct: fundPercent('Management fee %'),
    carryPct: fundPercent('Carry %'),
    hurdlePct: fundPercent('Hurdle %'),
  },
  relations: {
    performances: { kind: 'hasMany', to: 'fundPerformances', foreignKey: 'fundId' },
    cashFlows: { kind: 'hasMany', to: 'fundCashFlows', foreignKey: 'fundId' },
    deals: { kind: 'hasMany', to: 'deals', foreignKey: 'fundId' },
    contacts: { kind: 'manyToMany', via: 'contactFunds', from: 'fundId', target: 'contactId' },
  },
  list: {
    defaultShows: ['name', 'firmId', 'vintageYear', 'strategy', 'status', 'currency', 'targetSize'],
    defaultSort: 'name',
  },
  indexes: [['firmId', 'name']],
  dedupKeys: ['name'],
});
