import { z } from 'zod';

/** Entries per page of a record's history unless `limit` says otherwise, and the most one page holds. */
export const HISTORY_PAGE_SIZE = 20;
export const MAX_HISTORY_PAGE_SIZE = 100;

/** How long a deleted record can be restored unless the administrator sets otherwise, and the bounds of that setting. */
export const DEFAULT_RETENTION_DAYS = 30;
export const MIN_RETENTION_DAYS = 1;
export const MAX_RETENTION_DAYS = 3650;

/**
 * What was done to the row an entry is about: the record itself, or a row
 * that belongs to it (a note, a file, a link to another record). `restored`
 * is a field set back to an earlier value or a deleted record brought back.
 */
export const historyActions = ['created', 'updated', 'deleted', 'restored'] as const;
export type HistoryAction = (typeof historyActions)[number];

export const historyQuerySchema = z.object({
  cursor: z
    .string()
    .max(200)
    .optional()
    .describe("The previous page's `nextCursor`: entries older than its last one. Without it, the newest entries."),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_HISTORY_PAGE_SIZE)
    .default(HISTORY_PAGE_SIZE)
    .describe(`Entries per page (1 to ${MAX_HISTORY_PAGE_SIZE}).`),
});
export type HistoryQuery = z.infer<typeof historyQuerySchema>;

/** One field's value before and after (null before a create, after a delete), as the record's API answers it. */
export const historyChangeSchema = z.object({
  field: z.string(),
  old: z.unknown(),
  new: z.unknown(),
});
export type HistoryChange = z.infer<typeof historyChangeSchema>;

/** A record an entry names, with its display name while it exists and the reader may read it. */
export const historyRecordSchema = z.object({
  entity: z.string(),
  id: z.number(),
  name: z.string().nullable(),
});
export type HistoryRecord = z.infer<typeof historyRecordSchema>;

export const historyEntrySchema = z.object({
  id: z.number(),
  createdAt: z.string(),
  action: z.enum(historyActions),
  /** Who did it, named when the reader may read that user's name. */
  actor: z.object({ id: z.number(), fullName: z.string() }).nullable(),
  /**
   * The row the entry is about when it is not the record itself: a note, a
   * file or a link row (`entity` is its type, e.g. `notes`, `files`,
   * `contactCompanies`); null for the record's own changes.
   */
  subject: z.object({ entity: z.string(), id: z.number() }).nullable(),
  /** For a link: the record at its other end. */
  linked: historyRecordSchema.nullable(),
  /** Each field that changed, only those the reader may read (of the subject when there is one). */
  changes: z.array(historyChangeSchema),
  /** A deletion of the record that can still be undone (`POST /{resource}/{id}/restore`). */
  restorable: z.boolean(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const historyPageSchema = z.object({
  data: z.array(historyEntrySchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type HistoryPage = z.infer<typeof historyPageSchema>;

/** `POST /{resource}/{id}/history/{entryId}/restore`: set `field` back to the value it had before that entry. */
export const restoreFieldSchema = z.object({ field: z.string().min(1).max(100) });
export type RestoreField = z.infer<typeof restoreFieldSchema>;

/**
 * `POST /{resource}/{id}/restore`: the record back, how many of the rows
 * deleted with it came back or stayed out, and how many of the references the
 * deletion emptied (`onDelete: setNull`, a deal's fund) were set back or left
 * as they were (set to another record since, their row deleted since, or not
 * the caller's to update).
 */
export const restoredRecordSchema = z.object({
  record: z.record(z.string(), z.unknown()),
  restoredRows: z.number(),
  skippedRows: z.number(),
  restoredReferences: z.number(),
  skippedReferences: z.number(),
});
export type RestoredRecord = z.infer<typeof restoredRecordSchema>;

export const historySettingsSchema = z.object({
  retentionDays: z
    .number()
    .int()
    .min(MIN_RETENTION_DAYS)
    .max(MAX_RETENTION_DAYS)
    .describe(`Days a deleted record can be restored (${MIN_RETENTION_DAYS} to ${MAX_RETENTION_DAYS}).`),
});
export type HistorySettings = z.infer<typeof historySettingsSchema>;
