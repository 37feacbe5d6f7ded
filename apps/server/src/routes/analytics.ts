import { fundMetrics } from '@data-platform/shared/analytics/fund-metrics';
import { calendarDateSchema, fundMetricsResponseSchema } from '@data-platform/shared/analytics/fund-metrics-api';
import { dayNumber } from '@data-platform/shared/analytics/rate';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../db/client.ts';
import { errorBodySchema } from '../http/errors.ts';
import { analyticsLimiter, registerFundAnalyticsRoutes, throttleAnalytics } from './fund-analytics.ts';

/** Flows one calculation takes: decades of daily flows; the 1 MiB body limit applies too (413). */
export const MAX_FLOWS = 10_000;
/** Index levels one calculation takes: 40 years of daily levels. */
export const MAX_INDEX_LEVELS = 15_000;
/** Amounts and levels stay far below where sums of 10,000 of them lose cents. */
const MAX_AMOUNT = 1e15;

const dateSchema = calendarDateSchema;
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

const description = `A calculator over the cash flows in the body; it reads no stored data, so any signed-in user may
call it. Contributions are negative, distributions positive; the NAV's date is the as-of date. Every metric is
\`{ value, reason?, message? }\`: \`value\` null with a stable \`reason\` code (and an English \`message\`) when it is
not defined (no change of sign, nothing paid in, no index, an index not covering a flow's date...). Rates are XIRR
(Actual/365): annual over 365 days or more, else the rate over the period with \`annualised: false\` (GIPS). When
the flows change sign more than once every rate found is in \`roots\` and \`value\` is the one nearest zero. The
index level at a date is the last level on or before it, within the series' span. Up to ${MAX_FLOWS} flows and
${MAX_INDEX_LEVELS} index levels (400 naming the field beyond that), in a body of at most 1 MiB (413). Each call
counts against the caller's ${analyticsLimiter.limit} computations a minute, shared with the fund analytics routes
(429 with Retry-After beyond).`;

/** The calculator, and the fund analytics over stored data (fund-analytics.ts). */
export function registerAnalyticsRoutes(app: FastifyInstance, database: Database): void {
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
        429: errorBodySchema,
      },
    },
    handler: async (request) => {
      await throttleAnalytics(database, request);
      return fundMetrics(request.body);
    },
  });
  registerFundAnalyticsRoutes(app, database);
}
