/**
 * The fund analytics API's contract, shared by the server (validation,
 * OpenAPI) and the web app (typed answers):
 *
 * - `POST /api/v1/analytics/fund-metrics`, the calculator over flows in the body;
 * - `GET /api/v1/funds/{id}/metrics?asOf=YYYY-MM-DD&index={indexId}`, a stored
 *   fund's metrics from its cash flows and NAV, with its quarterly series;
 * - `GET /api/v1/funds/comparison`, every fund the caller reads with its
 *   latest multiples, IRR and quartile among peers (vintage year and strategy);
 * - `GET /api/v1/analytics/portfolio`, totals across funds per currency and
 *   their quarterly series.
 *
 * Every metric is `{ value, reason?, message? }`: `value` null with a stable
 * `reason` code and an English `message` when it is not defined; the screens
 * translate the reason code, the message is for API users.
 */
import { z } from 'zod';
import { isCalendarDate } from './rate.ts';

export const calendarDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected a date as YYYY-MM-DD')
  .refine(isCalendarDate, 'Not a calendar date');

/** The stable reason codes of a null metric (MetricReason in fund-metrics.ts, plus the stored-fund ones). */
export const metricReasons = [
  'no_flows',
  'no_sign_change',
  'no_root',
  'rate_out_of_range',
  'nothing_paid_in',
  'no_commitment',
  'no_index',
  'index_not_covering',
  'no_contributions',
  'no_distributions',
  'undefined_input',
  'invalid_flow',
] as const;

const reasonSchema = z.string().describe(`Why the value is null, a stable code: ${metricReasons.join(', ')}`);

export const metricSchema = z.object({
  value: z.number().nullable(),
  reason: reasonSchema.optional(),
  message: z.string().optional().describe('In English: why the value is null, or how to read it'),
});

export const rateMetricSchema = metricSchema.extend({
  annualised: z.boolean().describe('False when the flows span under 365 days: the rate over the period (GIPS)'),
  days: z.number().int().describe('Days from the first flow to the as-of date'),
  roots: z
    .array(z.number())
    .optional()
    .describe('Every rate found when the flows change sign more than once; `value` is the one nearest zero'),
});

/** What the calculator answers and what a fund's metrics carry: the shape of FundMetrics (fund-metrics.ts). */
export const fundMetricsResponseSchema = z.object({
  asOf: z.string(),
  paidIn: metricSchema,
  distributed: metricSchema,
  nav: metricSchema,
  dpi: metricSchema.describe('Distributed / paid-in'),
  rvpi: metricSchema.describe('NAV / paid-in'),
  tvpi: metricSchema.describe('(Distributed + NAV) / paid-in'),
  pic: metricSchema.describe('PIC: paid-in / committed (null without a commitment)'),
  irr: rateMetricSchema.describe('Net IRR: XIRR, Actual/365, the NAV as a final positive flow at the as-of date'),
  ksPme: metricSchema.describe('Kaplan–Schoar PME: distributions and NAV over contributions, each grown by the index'),
  lnPme: z.object({
    irr: rateMetricSchema.describe('IRR of the flows with the index position (Long–Nickels NAV) as the final value'),
    spread: metricSchema.describe('Fund IRR minus the Long–Nickels IRR'),
    nav: metricSchema.describe('What the index position holds at the as-of date; below zero it is short'),
  }),
  pmePlus: z.object({
    irr: rateMetricSchema.describe('IRR of the contributions, the distributions times lambda and the fund NAV'),
    lambda: metricSchema.describe('The factor on distributions that makes the index NAV equal the fund NAV'),
  }),
  directAlpha: rateMetricSchema
    .extend({ discrete: z.number().nullable().describe('a: the IRR of the flows compounded by the index') })
    .describe('Direct Alpha (Gredil, Griffiths & Stucke): ln(1 + a), continuously compounded'),
});
export type FundMetricsResponse = z.infer<typeof fundMetricsResponseSchema>;

const idSchema = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

// ---------------------------------------------------------------------------
// GET /api/v1/funds/{id}/metrics
// ---------------------------------------------------------------------------

export const fundMetricsParamsSchema = z.strictObject({ id: idSchema.describe('The fund') });

export const fundMetricsQuerySchema = z.strictObject({
  asOf: calendarDateSchema
    .optional()
    .describe('The as-of date; without it, the date of the fund’s latest NAV (or its latest flow without one)'),
  index: idSchema
    .optional()
    .describe('A benchmark index (benchmarkIndexes id) for KS-PME, Long–Nickels, PME+, Direct Alpha'),
});
export type FundMetricsQuery = z.infer<typeof fundMetricsQuerySchema>;

/** Where the NAV at the as-of date came from. */
export const navSourceSchema = z
  .object({
    kind: z
      .enum(['record', 'cost'])
      .describe(
        '`record`: the latest hand-entered fund performance record with a NAV on or before the as-of date, rolled forward by the calls and distributions since; `cost`: no such record, the NAV at cost (paid-in capital called minus distributions since the first flow, never below 0)',
      ),
    performanceId: z.number().int().nullable().describe('The fund performance record (fundPerformances id)'),
    date: z.string().nullable().describe('That record’s as-of date'),
    nav: z.number().nullable().describe('The NAV the record states'),
    rolledForward: z
      .number()
      .describe(
        'Capital called minus distributions between the record’s date (or the first flow) and the as-of date, added to its NAV (0 when the record is at the as-of date)',
      ),
    source: z.enum(['manual', 'computed']).nullable().describe('Whether the record was entered by hand or computed'),
  })
  .describe('The NAV used: the latest fund performance record with a NAV on or before the as-of date');
export type NavSource = z.infer<typeof navSourceSchema>;

export const quarterPointSchema = z.object({
  date: z.string().describe('A quarter end (YYYY-03-31, -06-30, -09-30, -12-31), the last point being the as-of date'),
  paidIn: z.number().describe('Cumulative contributions (capital calls and fees outside commitment) up to the date'),
  distributed: z.number().describe('Cumulative distributions (cash, recallable and in kind) up to the date'),
  nav: z.number().describe('The NAV at the date, by the rules of navSource'),
  navKind: z.enum(['record', 'cost']).describe('Where that NAV came from (see navSource.kind)'),
  netCashFlow: z.number().describe('Cumulative distributions minus contributions: the J-curve'),
  dpi: metricSchema,
  rvpi: metricSchema,
  tvpi: metricSchema,
  irr: rateMetricSchema.describe(
    'Net IRR to that date (null with a reason, e.g. no_sign_change in the early quarters)',
  ),
  ksPme: metricSchema
    .optional()
    .describe('Kaplan–Schoar PME to that date against the chosen index (only with `index`)'),
  directAlpha: metricSchema
    .optional()
    .describe('Direct Alpha to that date against the chosen index (only with `index`)'),
});
export type QuarterPoint = z.infer<typeof quarterPointSchema>;

export const fundMetricsAnswerSchema = z.object({
  fundId: z.number().int(),
  name: z.string().nullable(),
  asOf: z.string().describe('The as-of date used'),
  currency: z.string().nullable().describe('The fund’s currency (flows are in it)'),
  committed: z
    .number()
    .nullable()
    .describe('Committed capital: the final size, else the target size, of the fund; null when neither is known'),
  flowCount: z.number().int().describe('Cash flows on or before the as-of date counted (in the fund’s currency)'),
  otherCurrencyFlows: z
    .number()
    .int()
    .describe('Cash flows on or before the as-of date in another currency than the fund’s: not counted'),
  index: z
    .object({ id: z.number().int(), name: z.string(), currency: z.string().nullable() })
    .nullable()
    .describe('The benchmark index used, when one was asked for'),
  metrics: fundMetricsResponseSchema.describe('The calculator’s answer at the as-of date (pic is paid-in / committed)'),
  navSource: navSourceSchema,
  series: z
    .array(quarterPointSchema)
    .describe('One point per quarter end from the first flow’s quarter to the as-of date, the last at the as-of date'),
});
export type FundMetricsAnswer = z.infer<typeof fundMetricsAnswerSchema>;

// ---------------------------------------------------------------------------
// GET /api/v1/funds/comparison
// ---------------------------------------------------------------------------

export const fundComparisonQuerySchema = z.strictObject({
  asOf: calendarDateSchema
    .optional()
    .describe('The as-of date for every fund; without it, each fund at its latest NAV'),
});

export const quartileSchema = z
  .object({
    value: z
      .number()
      .int()
      .min(1)
      .max(4)
      .nullable()
      .describe('1 is the top quarter by TVPI among funds of the same vintage year and strategy; null when not ranked'),
    peers: z.number().int().describe('Funds of the same vintage year and strategy with a TVPI, this one included'),
    reason: z.enum(['no_vintage', 'no_strategy', 'no_tvpi', 'no_peers']).optional(),
  })
  .describe('Quartile by TVPI within vintage year and strategy, among the funds in the database');

export const fundComparisonRowSchema = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  vintageYear: z.number().int().nullable(),
  strategy: z.string().nullable(),
  size: z.number().nullable().describe('Final size, else target size'),
  currency: z.string().nullable(),
  asOf: z.string().nullable().describe('The date the metrics are at; null when the fund has no flow'),
  tvpi: metricSchema,
  dpi: metricSchema,
  irr: rateMetricSchema,
  quartile: quartileSchema,
});
export type FundComparisonRow = z.infer<typeof fundComparisonRowSchema>;

export const fundComparisonAnswerSchema = z.object({
  asOf: z.string().nullable().describe('The as-of date asked for, null for each fund at its latest'),
  funds: z.array(fundComparisonRowSchema).describe('The funds the caller may read, by name'),
});
export type FundComparisonAnswer = z.infer<typeof fundComparisonAnswerSchema>;

// ---------------------------------------------------------------------------
// GET /api/v1/analytics/portfolio
// ---------------------------------------------------------------------------

export const portfolioQuerySchema = z.strictObject({
  asOf: calendarDateSchema.optional().describe('The last date of the series; without it, today'),
});

export const portfolioPointSchema = z.object({
  date: z.string().describe('A quarter end, the last point being the as-of date'),
  committed: z.number().describe('Commitments of the funds whose first flow is on or before the date'),
  paidIn: z.number(),
  distributed: z.number(),
  nav: z.number().describe('The sum of each fund’s NAV at the date (0 for a fund without one)'),
});

export const portfolioCurrencySchema = z.object({
  currency: z.string(),
  funds: z.number().int().describe('Funds in this currency with at least one flow'),
  committed: z.number(),
  paidIn: z.number(),
  distributed: z.number(),
  nav: z.number(),
  series: z.array(portfolioPointSchema).describe('Quarterly, from the first flow in this currency to the as-of date'),
});
export type PortfolioCurrency = z.infer<typeof portfolioCurrencySchema>;

export const portfolioAnswerSchema = z.object({
  asOf: z.string(),
  currencies: z
    .array(portfolioCurrencySchema)
    .describe('Totals per currency (amounts are never added across currencies), largest paid-in first'),
});
export type PortfolioAnswer = z.infer<typeof portfolioAnswerSchema>;

/** Answer of POST /funds/{id}/performances/compute. */
export const computeAnswerSchema = z.object({
  fundId: z.number().int(),
  through: z.string().describe('The last quarter end computed'),
  created: z.number().int().describe('Computed records added'),
  updated: z.number().int().describe('Computed records whose figures changed, refreshed'),
  unchanged: z
    .number()
    .int()
    .describe('Computed records whose figures were already these: not written, no history entry'),
  removed: z
    .number()
    .int()
    .describe('Computed records removed: dated before the first flow or after the last quarter end'),
  keptManual: z.number().int().describe('Quarter ends left alone because a record entered by hand is there'),
  records: z.array(z.object({ id: z.number().int(), asOfDate: z.string() })).describe('The computed records, by date'),
});

export type ComputeAnswer = z.infer<typeof computeAnswerSchema>;
