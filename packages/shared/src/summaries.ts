import { z } from 'zod';

const groupCountsSchema = z.array(z.object({ value: z.string().nullable(), count: z.number() }));
export type GroupCount = z.infer<typeof groupCountsSchema>[number];

/** The home dashboard's picklist breakdowns: rows of a resource counted per value of one field. */
export const dashboardBreakdowns = [
  { key: 'dealsByStage', resource: 'deals', field: 'stage' },
  { key: 'investorsByFundraisingStatus', resource: 'investors', field: 'fundraisingStatus' },
  { key: 'fundsByStatus', resource: 'funds', field: 'status' },
] as const;
export type BreakdownKey = (typeof dashboardBreakdowns)[number]['key'];

const breakdownShape = Object.fromEntries(
  dashboardBreakdowns.map(({ key }) => [key, groupCountsSchema.optional()]),
) as Record<BreakdownKey, z.ZodOptional<typeof groupCountsSchema>>;

/** `GET /api/v1/configs/summaries`: the home dashboard; each part only when the user may read it. */
export const dashboardSummariesSchema = z.object({
  counts: z.record(z.string(), z.object({ total: z.number(), totalExact: z.boolean() })),
  ...breakdownShape,
  recentNotes: z
    .array(
      z.object({
        id: z.number(),
        body: z.string(),
        entity: z.string(),
        recordId: z.number(),
        createdAt: z.string(),
        createdBy: z.object({ id: z.number(), fullName: z.string() }).nullable(),
      }),
    )
    .optional(),
});
export type DashboardSummaries = z.infer<typeof dashboardSummariesSchema>;
