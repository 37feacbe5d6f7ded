import { linkRole } from './common-fields.ts';
import { defineEntity, type EntityDescription } from './entity.ts';

/** A link collection pairing two records, with a role; deleting either side deletes the link. */
function linkCollection(
  name: string,
  table: string,
  left: [field: string, to: string, label: string],
  right: [field: string, to: string, label: string],
  extra: EntityDescription['fields'] = {},
) {
  const ref = ([, to, label]: [string, string, string]) =>
    ({ type: 'reference', to, label, required: true, filterable: true, onDelete: 'cascade', immutable: true }) as const;
  return defineEntity({
    name,
    table,
    kind: 'link',
    label: `${left[2]} – ${right[2]}`,
    labelPlural: `${left[2]} – ${right[2]} links`,
    display: 'role',
    seed: true,
    fields: { [left[0]]: ref(left), [right[0]]: ref(right), ...linkRole, ...extra },
    list: { defaultShows: [left[0], right[0], 'role', 'createdAt'], defaultSort: '-createdAt' },
    uniques: [[left[0], right[0]]],
    indexes: [[right[0], left[0]]],
  });
}

const contact = ['contactId', 'contacts', 'Contact'] as [string, string, string];
const deal = ['dealId', 'deals', 'Deal'] as [string, string, string];

export const contactCompanies = linkCollection('contactCompanies', 'contact_companies', contact, [
  'companyId',
  'companies',
  'Company',
]);
export const contactFunds = linkCollection('contactFunds', 'contact_funds', contact, ['fundId', 'funds', 'Fund']);
export const contactDeals = linkCollection('contactDeals', 'contact_deals', contact, deal);
export const contactInvestors = linkCollection('contactInvestors', 'contact_investors', contact, [
  'investorId',
  'investors',
  'Investor',
]);
export const dealCompanies = linkCollection('dealCompanies', 'deal_companies', deal, [
  'companyId',
  'companies',
  'Company',
]);
export const dealInvestors = linkCollection(
  'dealInvestors',
  'deal_investors',
  deal,
  ['investorId', 'investors', 'Investor'],
  {
    commitment: {
      type: 'money',
      label: 'Commitment',
      filterable: true,
      sortable: true,
      // A new commitment is in its deal's currency unless the user picks another.
      currencyFrom: { field: 'dealId', to: 'deals', money: 'amount' },
    },
  },
);
