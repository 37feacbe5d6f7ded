import { defineEntity } from './entity.ts';

/**
 * The kinds of cash flow between a fund and its investors. Amounts are
 * entered as positive numbers; the type gives the direction (decision 0024):
 * capital calls and fees outside the commitment are paid in, the three kinds
 * of distribution are paid out.
 */
export const cashFlowTypes = [
  'Capital call',
  'Distribution',
  'Recallable distribution',
  'Fee outside commitment',
  'In-kind distribution',
] as const;
export type CashFlowType = (typeof cashFlowTypes)[number];

/** The types paid into the fund by its investors (contributions); the others are distributions. */
export const contributionTypes: ReadonlySet<string> = new Set<CashFlowType>(['Capital call', 'Fee outside commitment']);

/** The flow as the analytics count it: contributions negative, distributions positive. */
export function signedAmount(type: string, amount: number): number {
  return contributionTypes.has(type) ? -amount : amount;
}

/** A capital call or distribution between a fund and its investors, at a date: what a fund's IRR and multiples are computed from. */
export const fundCashFlows = defineEntity({
  name: 'fundCashFlows',
  table: 'fund_cash_flows',
  kind: 'record',
  label: 'Fund cash flow',
  labelPlural: 'Fund cash flows',
  display: 'date',
  displayWithin: 'fundId',
  permissions: true,
  navigation: { path: '/fund-cash-flows', order: 71, records: { edit: 'page', show: 'generic' } },
  seed: true,
  fields: {
    fundId: { type: 'reference', to: 'funds', label: 'Fund', required: true, filterable: true, onDelete: 'cascade' },
    date: { type: 'date', label: 'Date', required: true, filterable: true, sortable: true },
    type: { type: 'select', label: 'Type', options: cashFlowTypes, required: true, filterable: true, sortable: true },
    amount: {
      type: 'money',
      label: 'Amount',
      required: true,
      filterable: true,
      sortable: true,
      help: 'A positive amount: the type says whether it was paid in or out',
      // A new flow is in its fund's currency unless the user picks another.
      currencyFrom: { field: 'fundId', to: 'funds', money: 'currency' },
    },
    note: { type: 'longText', label: 'Note', maxLength: 5000 },
  },
  list: { defaultShows: ['fundId', 'date', 'type', 'amount', 'note'], defaultSort: '-date' },
  // A fund's flows in date order: its relation panel, and what its metrics read.
  indexes: [['fundId', 'date']],
  checks: [
    {
      name: 'fund_cash_flows_amount_not_negative',
      field: 'amount',
      sql: 'amount >= 0',
      message: 'Must be 0 or more: the type gives the direction',
    },
  ],
});
