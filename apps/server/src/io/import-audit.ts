/**
 * What an import's audit event (`recordsImported`) says it wrote: admins read
 * it in the audit log, and the activity feed counts the records from it
 * ("Admin imported 300 companies"). Written and read here only, so that the
 * two stay one format each.
 */

/** A one-request import's details (`POST /api/v1/{resource}/import`): every row written, created. */
export const importedRecordsDetails = (entity: string, records: number): string => `${entity}: ${records} records`;

/** An import job's details: what it created and updated, and the job. */
export const importJobDetails = (entity: string, created: number, updated: number, job: number): string =>
  `${entity}: ${created} created, ${updated} updated (import ${job})`;

/** The records an import's details say it wrote (created and updated), null when they say no count. */
export function importedCount(details: string): number | null {
  const records = /: (\d+) records?$/.exec(details);
  if (records) return Number(records[1]);
  const job = /: (\d+) created, (\d+) updated \(import \d+\)$/.exec(details);
  return job ? Number(job[1]) + Number(job[2]) : null;
}
