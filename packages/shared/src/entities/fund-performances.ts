import { defineEntity } from './entity.ts';

/**
 * A fund's figures at a quarter end, entered by hand (a NAV statement from the
 * GP: the records the fund metrics take the NAV from) or computed from its
 * cash flows by POST /api/v1/funds/{id}/performances/compute, which sets
 * `computedAt` (decision 0024). `source` says which.
 */
const amount = (label: string) =>
  ({ type: 'amount', label, currencyField: 'currency', min: 0, filterable: true, sortable: true }) as const;
const ratio = (label: string, expression: string) =>
  ({ type: 'multiple', label, generated: expression, filterable: true, sortable: true, importable: false }) as const;

export const fundPerformances = defineEntity({
  name: 'fundPerformances',
  table: 'fund_performances',
  kind: 'record',
  label: 'Fund performance',
  labelPlural: 'Fund performance',
  display: 'asOfDate',
  displayWithin: 'fundId',
  permissions: true,
  attachable: true,
  navigation: { path: '/fund-performances', order: 70, records: { edit: 'page', show: 'generic' } },
  dashboard: { count: true },
  seed: true,
  fields: {
    fundId: { type: 'reference', to: 'funds', label: 'Fund', required: true, filterable: true, onDelete: 'cascade' },
    asOfDate: { type: 'date', label: 'As of', required: true, filterable: true, sortable: true },
    currency: { type: 'currency', label: 'Currency', required: true, filterable: true },
    committed: amount('Committed'),
    paidIn: amount('Paid-in'),
    distributed: amount('Distributed'),
    nav: amount('NAV'),
    netIrr: { type: 'percent', label: 'Net IRR %', min: -100, max: 10_000, filterable: true, sortable: true },
    grossIrr: { type: 'percent', label: 'Gross IRR %', min: -100, max: 10_000, filterable: true, sortable: true },
    grossMoic: { type: 'multiple', label: 'Gross MOIC', min: 0, max: 1000, filterable: true, sortable: true },
    notes: { type: 'longText', label: 'Notes' },
    computedAt: {
      type: 'datetime',
      label: 'Computed from flows at',
      serverOwned: true,
      filterable: true,
      sortable: true,
      help: 'Set when the record was computed from the fund’s cash flows (the flows up to its date produced it)',
    },
    source: {
      type: 'select',
      label: 'Source',
      options: ['manual', 'computed'],
      optionLabels: { manual: 'Entered by hand', computed: 'Computed from flows' },
      generated: "case when computed_at is null then 'manual' else 'computed' end",
      filterable: true,
      sortable: true,
      importable: false,
    },
    dpi: ratio('DPI', 'round(distributed / nullif(paid_in, 0), 4)'),
    rvpi: ratio('RVPI', 'round(nav / nullif(paid_in, 0), 4)'),
    tvpi: ratio('TVPI', 'round((coalesce(distributed, 0) + coalesce(nav, 0)) / nullif(paid_in, 0), 4)'),
  },
  list: {
    defaultShows: ['fundId', 'asOfDate', 'paidIn', 'distributed', 'nav', 'netIrr', 'dpi', 'tvpi', 'source'],
    defaultSort: '-asOfDate',
  },
  uniques: [['fundId', 'asOfDate']],
});
