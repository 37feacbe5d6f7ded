import { z } from 'zod';
import { exportFormats } from './export-formats.ts';
import { listQueryStringSchema } from './query/list-query.ts';

/**
 * Exports as jobs (`/api/v1/exports`, decision 0036): the list a person is
 * looking at, written by the server to a file it keeps for a while, followed
 * while it is written and downloaded when done. The streamed export
 * (`GET /{resource}/export`) writes the same bytes straight to the download.
 */

export const exportJobStatuses = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type ExportJobStatus = (typeof exportJobStatuses)[number];
/** Statuses of a job that is still going: a user has at most one such job. */
export const activeExportStatuses: readonly ExportJobStatus[] = ['queued', 'running'];

/** Hours a finished export's file is kept; then it is removed and the job's file answers 410. */
export const EXPORT_FILE_HOURS = 24;

/**
 * `POST /api/v1/{resource}/exports`: the format and the list parameters the
 * streamed export takes, spelled as its query string is (`select`, `sort`,
 * `q`, `filter[field][op]`; a filter given several times as a list), read by
 * the same parser. Paging parameters are ignored: every matching row is written.
 */
export const startExportSchema = listQueryStringSchema.extend({
  format: z.enum(exportFormats).default('csv'),
});
export type StartExport = z.input<typeof startExportSchema>;

export const exportJobSchema = z.object({
  id: z.number(),
  entity: z.string(),
  format: z.enum(exportFormats),
  status: z.enum(exportJobStatuses),
  /** The file's name, as the streamed export names it (`companies-2025-01-31.csv`). */
  fileName: z.string(),
  /** Rows written to the file so far (all of them once succeeded). */
  rowsWritten: z.number(),
  /**
   * The list's total as a list estimates it (`count=estimated`: counted while
   * small, the planner's estimate above), known once the job runs; the rows
   * written once it has succeeded.
   */
  rowsTotal: z.number().nullable(),
  /** Whether `rowsTotal` was counted (true) or estimated (false); null while unknown. */
  totalExact: z.boolean().nullable(),
  /** Bytes of the file so far. */
  bytes: z.number(),
  /** While running: rows written per second since it started. */
  rowsPerSecond: z.number().nullable(),
  /** While running, with a total: seconds left at that rate. */
  secondsLeft: z.number().nullable(),
  /** Why it failed, or how it was cancelled. */
  message: z.string().nullable(),
  /** A cancel was asked and the job has not stopped yet. */
  cancelRequested: z.boolean(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** When a succeeded job's file is removed. */
  expiresAt: z.string().nullable(),
  /** Where the file is downloaded, while it can be (succeeded, not expired); null otherwise. */
  fileUrl: z.string().nullable(),
});
export type ExportJob = z.infer<typeof exportJobSchema>;
