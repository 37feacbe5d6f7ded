import { z } from 'zod';
import { owner } from './entities/common-fields.ts';
import { type EntityDescription, inSidebarOrder } from './entities/entity.ts';
import { entityList, findEntity } from './entities/registry.ts';

const amountsSchema = z.array(z.object({ currency: z.string(), amount: z.number() }));
const groupCountsSchema = z.array(
  z.object({
    value: z.string().nullable(),
    count: z.number(),
    /** The sum of the breakdown's money field per currency, largest first (rows without an amount add nothing). */
    amounts: amountsSchema.optional(),
  }),
);
export type GroupCount = z.infer<typeof groupCountsSchema>[number];
export type CurrencyAmount = z.infer<typeof amountsSchema>[number];

/** One of the home dashboard's picklist breakdowns: rows of a resource counted per value of one field. */
export interface DashboardBreakdown {
  /** `<resource>By<Field>`, e.g. `dealsByStage`: the summaries' key and the dashboard's title key. */
  key: BreakdownKey;
  resource: string;
  field: string;
}
export type BreakdownKey = `${string}By${string}`;

/**
 * The money field a breakdown sums per value and currency beside its count:
 * the entity's first money field in the order its description lists them (a
 * deal's amount, an investor's AUM), when it has one.
 */
export function breakdownAmountField(resource: string): string | undefined {
  const entity = findEntity(resource);
  return entity && Object.entries(entity.fields).find(([, field]) => field.type === 'money')?.[0];
}

/** The breakdowns the descriptions ask for (`dashboard.breakdowns`), in sidebar order. */
export const dashboardBreakdowns: readonly DashboardBreakdown[] = inSidebarOrder(entityList).flatMap((entity) =>
  (entity.dashboard?.breakdowns ?? []).map((field) => ({
    key: `${entity.name}By${field.charAt(0).toUpperCase()}${field.slice(1)}` as BreakdownKey,
    resource: entity.name,
    field,
  })),
);

/**
 * The field naming whose a row is: `ownedBy` where the description says so
 * (tasks), else the shared owner field (`...owner` of common-fields.ts) where
 * the description has it (companies, contacts, deals, investors).
 */
export function ownerFieldOf(entity: EntityDescription): string | undefined {
  if (entity.ownedBy) return entity.ownedBy;
  return Object.entries(entity.fields).find(([, field]) => field === owner.ownerId)?.[0];
}

/** The record types with an owner, in sidebar order: the dashboard's "my records". */
export const ownedEntities: readonly { resource: string; field: string }[] = inSidebarOrder(entityList).flatMap(
  (entity) => {
    const field = entity.navigation ? ownerFieldOf(entity) : undefined;
    return field ? [{ resource: entity.name, field }] : [];
  },
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
        /** The record's name as `recordName` gives it; null when the reader may not read the record (or it is gone). */
        recordName: z.string().nullable(),
        createdAt: z.string(),
        createdBy: z.object({ id: z.number(), fullName: z.string() }).nullable(),
      }),
    )
    .optional(),
  /**
   * The signed-in user's records per owned record type the user may read (see
   * `ownedEntities`): exact while small, the planner's estimate above (`totalExact` false).
   */
  mine: z
    .array(
      z.object({
        resource: z.string(),
        field: z.string(),
        userId: z.number(),
        total: z.number(),
        totalExact: z.boolean(),
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
export type RecentNote = NonNullable<DashboardSummaries['recentNotes']>[number];
export type MyRecordCount = NonNullable<DashboardSummaries['mine']>[number];

/** `GET /api/v1/configs/summaries`: the home dashboard; each part only when the user may read it. */
export const dashboardSummariesSchema = z.object({ ...summariesShape, ...breakdownShape }) as unknown as z.ZodType<
  DashboardSummaries,
  DashboardSummaries
>;
