import { z } from 'zod';

const groupCountsSchema = z.array(z.object({ value: z.string().nullable(), count: z.number() }));
export type GroupCount = z.infer<typeof groupCountsSchema>[number];

/** `GET /api/v1/configs/summaries`: the home dashboard; each part only when the user may read it. */
export const dashboardSummariesSchema = z.object({
  counts: z.record(z.string(), z.object({ total: z.number(), totalExact: z.boolean() })),
  dealsByStage: groupCountsSchema.optional(),
  investorsByFundraisingStatus: groupCountsSchema.optional(),
  fundsByStatus: groupCountsSchema.optional(),
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
