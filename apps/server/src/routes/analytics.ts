import { fundMetrics } from '@data-platform/shared/analytics/fund-metrics';
import { dayNumber, isCalendarDate } from '@data-platform/shared/analytics/rate';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../http/errors.ts';

/** Flows one calculation takes: decades of daily flows; the 1 MiB body limit applies too (413). */
export const MAX_FLOWS = 10_000;
/** Index levels one calculation takes: 40 years of daily levels. */
export const MAX_INDEX_LEVELS = 15_000;
/** Amounts and levels stay far below where sums of 10,000 of them lose cents. */
const MAX_AMOUNT = 1e15;

const dateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected a date as YYYY-MM-DD')
  .refine(isCalendarDate, 'Not a calendar date');
const amountSchema = z.number().min(-MAX_AMOUNT).max(MAX_AMOUNT);

export const fundMetricsBodySchema = z
  .strictObject({
    flows: z
      .array(z.strictObject({ date: dateSchema, amount: amountSchema }))
      .min(1)
      .max(MAX_FLOWS)
      .describe('Cash flows: contributions (capital paid in) negative, distributions positive'),
    nav: z
      .strictObject({ date: dateSchema, amount: z.number().min(0).max(MAX_AMOUNT) })
      .describe('The NAV at the as-of date: its date is the as-of date, no flow may be later'),
    index: z
      .array(z.strictObject({ date: dateSchema, level: z.number().positive().max(MAX_AMOUNT) }))
      .max(MAX_INDEX_LEVELS)
      .optional()
      .describe('A public index (e.g. a total-return series), one level per date, covering the first flow to the NAV'),
    committed: z.number().positive().max(MAX_AMOUNT).optional().describe('Committed capital, for paid-in / committed'),
  })
  .superRefine((body, context) => {
    const asOf = dayNumber(body.nav.date);
    body.flows.forEach((flow, i) => {
      if (dayNumber(flow.date) > asOf) {
        context.addIssue({
          code: 'custom',
          path: ['flows', i, 'date'],
          message: 'After the NAV date (the as-of date)',
        });
      }
    });
    const seen = new Set<string>();
    body.index?.forEach((level, i) => {
      if (seen.has(level.date)) {
        context.addIssue({ code: 'custom', path: ['index', i, 'date'], message: 'A second level on this date' });
      }
      seen.add(level.date);
    });
  });

const reasonSchema = z
  .string()
  .describe(
    'Why the value is null, a stable code: no_flows, no_sign_change, no_root, rate_out_of_range, nothing_paid_in, no_commitment, no_index, index_not_covering, no_contributions, no_distributions, undefined_input',
  );
const metricSchema = z.object({
  value: z.number().nullable(),
  reason: reasonSchema.optional(),
  message: z.string().optional().describe('In English: why the value is null, or how to read it'),
});
const rateMetricSchema = metricSchema.extend({
  annualised: z.boolean().describe('False when the flows span under 365 days: the rate over the period (GIPS)'),
  days: z.number().int().describe('Days from the first flow to the as-of date'),
  roots: z
    .array(z.number())
    .optional()
    .describe('Every rate found when the flows change sign more than once; `value` is the one nearest zero'),
});

export const fundMetricsResponseSchema = z.object({
  asOf: z.string(),
  paidIn: metricSchema,
  distributed: metricSchema,
  nav: metricSchema,
  dpi: metricSchema.describe('Distributed / paid-in'),
  rvpi: metricSchema.describe('NAV / paid-in'),
  tvpi: metricSchema.describe('(Distributed + NAV) / paid-in'),
  pic: metricSchema.describe('Paid-in / committed (null without `committed`)'),
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

const description = `A calculator over the cash flows in the body; it reads no stored data, so any signed-in user may
call it. Contributions are negative, distributions positive; the NAV's date is the as-of date. Every metric is
\`{ value, reason?, message? }\`: \`value\` null with a stable \`reason\` code (and an English \`message\`) when it is
not defined (no change of sign, nothing paid in, no index, an index not covering a flow's date...). Rates are XIRR
(Actual/365): annual over 365 days or more, else the rate over the period with \`annualised: false\` (GIPS). When
the flows change sign more than once every rate found is in \`roots\` and \`value\` is the one nearest zero. The
index level at a date is the last level on or before it, within the series' span. Up to ${MAX_FLOWS} flows and
${MAX_INDEX_LEVELS} index levels (400 naming the field beyond that), in a body of at most 1 MiB (413).`;

export function registerAnalyticsRoutes(app: FastifyInstance): void {
  app.withTypeProvider<ZodTypeProvider>().post('/api/v1/analytics/fund-metrics', {
    schema: {
      tags: ['Analytics'],
      summary: 'Fund metrics from cash flows: multiples, net IRR, KS-PME, Long–Nickels, PME+, Direct Alpha',
      description,
      body: fundMetricsBodySchema,
      response: {
        200: fundMetricsResponseSchema,
        400: errorBodySchema,
        401: errorBodySchema,
        413: errorBodySchema,
      },
    },
    handler: async (request) => fundMetrics(request.body),
  });
}
