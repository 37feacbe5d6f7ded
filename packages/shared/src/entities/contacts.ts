import { headquarters, owner } from './common-fields.ts';
import { defineEntity } from './entity.ts';

// Not searchable themselves: the full name (first, a space, last) is, and holds every match of either.
const personName = (label: string) =>
  ({
    type: 'text',
    label,
    required: true,
    sortable: true,
    filterable: true,
    maxLength: 150,
  }) as const;

export const contacts = defineEntity({
  name: 'contacts',
  table: 'contacts',
  kind: 'record',
  label: 'Contact',
  labelPlural: 'Contacts',
  display: 'fullName',
  permissions: true,
  customizable: true,
  attachable: true,
  navigation: { path: '/contacts', order: 30, records: { edit: 'page', show: 'generic' } },
  dashboard: { count: true },
  seed: true,
  fields: {
    firstName: personName('First name'),
    lastName: personName('Last name'),
    fullName: {
      type: 'text',
      label: 'Name',
      required: true,
      generated: "first_name || ' ' || last_name",
      searchable: true,
      sortable: true,
      filterable: true,
      importable: false,
    },
    email: { type: 'email', label: 'Email', unique: true, searchable: true, filterable: true, sortable: true },
    otherEmails: { type: 'emails', label: 'Other emails', filterable: true },
    phone: { type: 'phone', label: 'Phone', filterable: true },
    title: { type: 'text', label: 'Title', filterable: true, sortable: true, maxLength: 200 },
    firmId: { type: 'reference', to: 'firms', label: 'Firm', filterable: true, onDelete: 'setNull' },
    ...headquarters,
    linkedinUrl: { type: 'url', label: 'LinkedIn URL' },
    ...owner,
    tags: { type: 'tags', label: 'Tags', filterable: true },
  },
  relations: {
    companies: { kind: 'manyToMany', via: 'contactCompanies', from: 'contactId', target: 'companyId' },
    funds: { kind: 'manyToMany', via: 'contactFunds', from: 'contactId', target: 'fundId' },
    deals: { kind: 'manyToMany', via: 'contactDeals', from: 'contactId', target: 'dealId' },
    investors: { kind: 'manyToMany', via: 'contactInvestors', from: 'contactId', target: 'investorId' },
  },
  list: { defaultShows: ['fullName', 'email', 'title', 'firmId', 'hqCountryId', 'city'], defaultSort: 'fullName' },
  indexes: [
    ['firmId', 'fullName'],
    ['hqCountryId', 'fullName'],
  ],
  dedupKeys: ['email', 'fullName'],
  duplicates: true,
});
