import { z } from 'zod';

/** Lines per page of recent activity unless `limit` says otherwise, and the most one page holds. */
export const ACTIVITY_PAGE_SIZE = 20;
export const MAX_ACTIVITY_PAGE_SIZE = 100;

/** What happened to a record: a change through any route (a screen, the API, a bulk edit), an import, a note or a file added to it. */
export const activityActions = ['created', 'updated', 'deleted', 'imported', 'noteAdded', 'fileUploaded'] as const;
export type ActivityAction = (typeof activityActions)[number];

export const activityQuerySchema = z.object({
  before: z
    .string()
    .max(200)
    .optional()
    .describe("The previous page's `nextCursor`: lines older than its last one. Without it, the newest lines."),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_ACTIVITY_PAGE_SIZE)
    .default(ACTIVITY_PAGE_SIZE)
    .describe(`Lines per page (1 to ${MAX_ACTIVITY_PAGE_SIZE}).`),
});

export const activityItemSchema = z.object({
  /** The audit event's id. */
  id: z.number(),
  createdAt: z.string(),
  action: z.enum(activityActions),
  /** Who did it, named when the reader may read that user's name (null for a removed or unreadable user). */
  actor: z.object({ id: z.number(), fullName: z.string() }).nullable(),
  /** The record's type (the entity's name). */
  entity: z.string(),
  /** The record's id; null for an import, which names no single record. */
  recordId: z.number().nullable(),
  /**
   * The record's display name (as `recordName` names it) while it exists and
   * the reader may read it; null once it is deleted. A record the reader may
   * not read is never in the answer.
   */
  recordName: z.string().nullable(),
  /** Whether the record still exists (its page can be opened). */
  recordExists: z.boolean(),
  /** The fields an update sent, only those the reader may read; empty for other actions. */
  fields: z.array(z.string()),
  /** Records an import created. */
  count: z.number().nullable(),
  /** The uploaded file's name (fileUploaded only, while the file exists). */
  fileName: z.string().nullable(),
});
export type ActivityItem = z.infer<typeof activityItemSchema>;

export const activityPageSchema = z.object({
  data: z.array(activityItemSchema),
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type ActivityPage = z.infer<typeof activityPageSchema>;
