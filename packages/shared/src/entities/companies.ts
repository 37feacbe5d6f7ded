import { domainFromWebsite, headquarters, nameField, owner } from './common-fields.ts';
import { defineEntity } from './entity.ts';
import { companyStages, industries } from './picklists.ts';

export const companies = defineEntity({
  name: 'companies',
  table: 'companies',
  kind: 'record',
  label: 'Company',
  labelPlural: 'Companies',
  display: 'name',
  permissions: true,
  customizable: true,
  attachable: true,
  navigation: { path: '/companies', order: 10, records: { edit: 'page', show: 'generic' } },
  dashboard: { count: true },
  seed: true,
  fields: {
    name: nameField,
    legalName: {
      type: 'text',
      label: 'Legal name',
      searchable: true,
      sortable: true,
      filterable: true,
      maxLength: 300,
    },
    website: { type: 'url', label: 'Website', filterable: true },
    domain: domainFromWebsite,
    description: { type: 'longText', label: 'Description', filterable: true },
    industry: { type: 'select', label: 'Industry', options: industries, filterable: true, sortable: true },
    stage: { type: 'select', label: 'Stage', options: companyStages, filterable: true, sortable: true },
    status: {
      type: 'select',
      label: 'Status',
      options: ['Prospect', 'Active', 'Portfolio', 'Exited', 'Passed'],
      filterable: true,
      sortable: true,
    },
    ownership: {
      type: 'select',
      label: 'Ownership',
      options: ['Private', 'VC-backed', 'PE-backed', 'Public', 'Subsidiary', 'Government'],
      filterable: true,
      sortable: true,
    },
    ...headquarters,
    foundedYear: { type: 'year', label: 'Founded', notFuture: true, filterable: true, sortable: true },
    employees: { type: 'integer', label: 'Employees', min: 0, filterable: true, sortable: true },
    revenue: { type: 'money', label: 'Revenue', filterable: true, sortable: true },
    totalRaised: { type: 'money', label: 'Total raised', filterable: true, sortable: true },
    linkedinUrl: { type: 'url', label: 'LinkedIn URL' },
    ...owner,
    tags: { type: 'tags', label: 'Tags', filterable: true },
  },
  relations: {
    contacts: { kind: 'manyToMany', via: 'contactCompanies', from: 'companyId', target: 'contactId' },
    deals: { kind: 'manyToMany', via: 'dealCompanies', from: 'companyId', target: 'dealId' },
  },
  list: {
    defaultShows: ['name', 'industry', 'stage', 'status', 'hqCountryId', 'city', 'ownerId'],
    defaultSort: 'name',
  },
  // By country: a filter a name-ordered walk would read most of the table for (few rows per country).
  // By creation: the "newest first" order. Status and stage need none: a fifth or an eighth of the rows
  // each, a name-ordered walk finds a page of them within a few hundred rows (decision 0019).
  indexes: [['hqCountryId', 'name'], ['createdAt']],
  dedupKeys: ['domain', 'name'],
  duplicates: true,
});
