/**
 * The data areas the product spec lists (product-spec.md §3), copied from the
 * spec, in its order: what tests of the registry and of the web app's store
 * expect, never derived from the code they check.
 */
export const specDataAreas: readonly string[] = [
  'auth',
  'lands',
  'companies',
  'entityFieldTypes',
  'customFields',
  'customFieldGroups',
  'countries',
  'currencies',
  'funds',
  'contacts',
  'users',
  'contactCompanies',
  'contactFunds',
  'firms',
  'deals',
  'contactDeals',
  'dealCompanies',
  'files',
  'notes',
  'configs',
  'investors',
  'contactInvestors',
  'dealInvestors',
  'fundPerformances',
  'layouts',
];
