import type { FieldDescription } from '../fields/field-types.ts';

/** Headquarters location: country, then a state of that country, then a city. */
export const headquarters = {
  hqCountryId: {
    type: 'reference',
    to: 'countries',
    label: 'HQ country',
    filterable: true,
    onDelete: 'setNull',
    givesPhoneCode: true,
  },
  hqStateId: {
    type: 'reference',
    to: 'states',
    label: 'HQ state',
    filterable: true,
    onDelete: 'setNull',
    within: { field: 'hqCountryId', relation: 'states' },
  },
  city: { type: 'text', label: 'City', filterable: true, sortable: true, searchable: true, maxLength: 200 },
} as const satisfies Record<string, FieldDescription>;

export const owner = {
  ownerId: { type: 'reference', to: 'users', label: 'Owner', filterable: true, onDelete: 'setNull' },
} as const satisfies Record<string, FieldDescription>;

/** The display name of most entities: required, searched, sorted. */
export const nameField = {
  type: 'text',
  label: 'Name',
  required: true,
  searchable: true,
  sortable: true,
  filterable: true,
  maxLength: 300,
} as const satisfies FieldDescription;

/** The lower-cased host of a website without "www.", for duplicate matching. */
export const domainFromWebsite: FieldDescription = {
  type: 'text',
  label: 'Domain',
  generated: "lower(substring(website from '^(?:[a-zA-Z]+://)?(?:www\\.)?([^/:?#]+)'))",
  searchable: true,
  sortable: true,
  filterable: true,
  importable: false,
};

/** The role a link plays ("Board member", "Lead investor", ...). */
export const linkRole = {
  role: { type: 'text', label: 'Role', filterable: true, sortable: true, maxLength: 200 },
} as const satisfies Record<string, FieldDescription>;
