import type { ExportFormat } from '@data-platform/shared/export-formats';
import { activeExportStatuses, type ExportJob } from '@data-platform/shared/export-jobs';

/** Whether the job is still going (queued or running): it is read again until it ends. */
export const isGoing = (job: Pick<ExportJob, 'status'>) => activeExportStatuses.includes(job.status);

/**
 * How far a job is: the percent of its total written, or null while the
 * total is unknown or already passed (an estimate below the rows found).
 */
export function percentOf(job: Pick<ExportJob, 'rowsWritten' | 'rowsTotal'>): number | null {
  const total = job.rowsTotal;
  if (total === null || job.rowsWritten > total) return null;
  return total === 0 ? 100 : Math.floor((job.rowsWritten / total) * 100);
}

/**
 * The list parameters as a job's body takes them: the query string's pairs,
 * a key given several times as a list of its values, and the format.
 */
export function exportBody(format: ExportFormat, params: readonly [string, string][]): Record<string, unknown> {
  const body: Record<string, string | string[]> = {};
  for (const [key, value] of params) {
    const before = body[key];
    body[key] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  return { ...body, format };
}
