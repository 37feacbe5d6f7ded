import { z } from 'zod';
import { inSidebarOrder } from './entities/entity.ts';
import { entityList } from './entities/registry.ts';

const groupCountsSchema = z.array(z.object({ value: z.string().nullable(), count: z.number() }));
export type GroupCount = z.infer<typeof groupCountsSchema>[number];

/** One of the home dashboard's picklist breakdowns: rows of a resource counted per value of one field. */
export interface DashboardBreakdown {
  /** `<resource>By<Field>`, e.g. `dealsByStage`: the summaries' key and the dashboard's title key. */
  key: BreakdownKey;
  resource: string;
  field: string;
}
export type BreakdownKey = `${string}By${string}`;

/** The breakdowns the descriptions ask for (`dashboard.breakdowns`), in sidebar order. */
export const dashboardBreakdowns: readonly DashboardBreakdown[] = inSidebarOrder(entityList).flatMap((entity) =>
  (entity.dashboard?.breakdowns ?? []).map((field) => ({
    key: `${entity.name}By${field.charAt(0).toUpperCase()}${field.slice(1)}` as BreakdownKey,
    resource: entity.name,
    field,
  })),
);

const breakdownShape = Object.fromEntries(
  dashboardBreakdowns.map(({ key }) => [key, groupCountsSchema.optional()]),
) as Record<BreakdownKey, z.ZodOptional<typeof groupCountsSchema>>;

const summariesShape = {
  counts: z.record(z.string(), z.object({ total: z.number(), totalExact: z.boolean() })),
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
};

/**
 * The summaries' type: the fixed parts, and a breakdown under each key. The
 * keys come from the descriptions at run time, so the type names their pattern.
 */
export type DashboardSummaries = z.infer<z.ZodObject<typeof summariesShape>> &
  Partial<Record<BreakdownKey, GroupCount[]>>;

/** `GET /api/v1/configs/summaries`: the home dashboard; each part only when the user may read it. */
export const dashboardSummariesSchema = z.object({ ...summariesShape, ...breakdownShape }) as unknown as z.ZodType<
  DashboardSummaries,
  DashboardSummaries
>;
