import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { exportPermissions } from '@data-platform/shared/entities/access';
import { findEntity } from '@data-platform/shared/entities/registry';
import type { ExportFormat } from '@data-platform/shared/export-formats';
import { EXPORT_FILE_HOURS, type ExportJob, type ExportJobStatus } from '@data-platform/shared/export-jobs';
import { QueryError } from '@data-platform/shared/query/list-query';
import { sql } from 'drizzle-orm';
import { activeActor } from '../auth/active-actor.ts';
import { missingPermissions } from '../auth/actor.ts';
import { countRows } from '../crud/list-count.ts';
import { pgArrayLiteral } from '../crud/sql-fragments.ts';
import type { Database } from '../db/client.ts';
import { currentReader } from '../db/read-replica.ts';
import { DomainError } from '../domain/errors.ts';
import { exportStream } from './export.ts';
import { type ExportPlan, exportPlan } from './export-plan.ts';

/**
 * Export jobs (decision 0036), run in the background by the server process
 * that claims them: `exportStream` (the streamed export's own bytes) piped
 * into DATA_DIR/exports/<id>, with the rows counted as they go. About once a
 * second the job's row gets the rows and bytes so far and a heartbeat, and
 * answers whether a cancel was asked (from another process; this one's
 * cancels stop the job at once).
 *
 * A job does not resume: a server that stops while writing one marks it
 * failed and removes its partial file; one killed stops beating, and any
 * server (at its start and every few seconds) marks a job whose heartbeat is
 * stale failed and removes its file. A finished file is kept
 * EXPORT_FILE_HOURS, then removed by the same sweep.
 */

/** How often a running job's progress and heartbeat are written. */
const PROGRESS_MS = 1000;
/** A running job whose heartbeat is older than this has lost its process. */
export const EXPORT_STALE_AFTER_MS = 10_000;
const SWEEP_MS = 5000;
/** Jobs one server process writes at once; more wait queued (each user has at most one going). */
const JOBS_AT_ONCE = 2;
/** How long a job waits for a read replica to hold what the primary held when it started (a file is minutes). */
const REPLICA_WAIT_MS = 2_000;

export const LOST_MESSAGE =
  'The server stopped while writing this export; the partial file was removed. Start the export again.';
const CANCELLED_MESSAGE = 'Cancelled; the partial file was removed';

/** The directory of export files. */
export const exportsDir = (dataDir: string) => path.join(dataDir, 'exports');
/** Where a job's file is written. */
export const exportPath = (dataDir: string, id: number) => path.join(exportsDir(dataDir), String(id));

interface JobRow {
  id: number | string;
  user_id: number | string | null;
  entity: string;
  format: ExportFormat;
  params: Record<string, unknown>;
  file_name: string;
  status: ExportJobStatus;
  rows_written: number;
  rows_total: number | null;
  total_exact: boolean | null;
  bytes: number | string;
  message: string | null;
  cancel_requested: boolean;
  created_at: string | Date;
  started_at: string | Date | null;
  finished_at: string | Date | null;
  expires_at: string | Date | null;
  /** Seconds since it started, or that it ran once finished. */
  seconds: number | null;
  /** The file can be downloaded: succeeded, not expired. */
  downloadable: boolean;
}

const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

/** The job as the API answers it: progress with its rate and time left, and where its file is. */
export function jobOf(row: JobRow): ExportJob {
  const rate = row.seconds && row.seconds > 0 && row.started_at !== null ? row.rows_written / row.seconds : null;
  const left = row.rows_total === null ? 0 : row.rows_total - row.rows_written;
  return {
    id: Number(row.id),
    entity: row.entity,
    format: row.format,
    status: row.status,
    fileName: row.file_name,
    rowsWritten: row.rows_written,
    rowsTotal: row.rows_total,
    totalExact: row.total_exact,
    bytes: Number(row.bytes),
    rowsPerSecond: rate === null ? null : Math.round(rate),
    secondsLeft: row.status === 'running' && rate && left > 0 ? Math.round(left / rate) : null,
    message: row.message,
    cancelRequested: row.cancel_requested && (row.status === 'queued' || row.status === 'running'),
    createdAt: iso(row.created_at) as string,
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    expiresAt: iso(row.expires_at),
    fileUrl: row.downloadable ? `/api/v1/exports/${row.id}/file` : null,
  };
}

/** A job's row with its seconds running and whether its file can be downloaded, as `jobOf` reads it. */
const jobColumns = sql`*, extract(epoch from coalesce(finished_at, now()) - started_at)::float8 as seconds,
  (status = 'succeeded' and file_removed_at is null and expires_at > now()) as downloadable`;

export async function readJob(database: Database, id: number): Promise<JobRow | undefined> {
  const [row] = await database.rows<JobRow>(sql`select ${jobColumns} from export_jobs where id = ${id}`);
  return row;
}

/** A user's export jobs, newest first, of one entity or all. */
export function listJobs(database: Database, userId: number | null, entity: string | undefined, limit: number) {
  return database.rows<JobRow>(
    sql`select ${jobColumns} from export_jobs where user_id = ${userId}
      ${entity === undefined ? sql`` : sql`and entity = ${entity}`}
      order by id desc limit ${limit}`,
  );
}

/** Rows and bytes written so far, as the file receives them. */
interface Progress {
  rows: number;
  bytes: number;
}

/**
 * Counts the bytes going to the file and, for CSV, its records: a line feed
 * outside quotes ends one (a quoted cell may hold line feeds; `""` inside
 * quotes flips the state twice). UTF-8 never uses these bytes inside a
 * character. The heading is the first record: not a row.
 */
function counter(progress: Progress, csv: boolean): Transform {
  let quoted = false;
  let heading = csv;
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      progress.bytes += chunk.length;
      if (csv) {
        let rows = 0;
        for (let i = 0; i < chunk.length; i++) {
          const byte = chunk[i];
          if (byte === 0x22) quoted = !quoted;
          else if (byte === 0x0a && !quoted) rows += 1;
        }
        if (heading && rows > 0) {
          heading = false;
          rows -= 1;
        }
        progress.rows += rows;
      }
      done(null, chunk);
    },
  });
}

/** A job that cannot run as asked any more: its message says why. */
class Refused extends Error {}

/** Why a job was stopped before its end. */
type StopReason = 'cancelled' | 'stopping';

/** Runs the export jobs this process claims, a few at a time; fails those whose process died; removes expired files. */
export class ExportRunner {
  private sweeping?: NodeJS.Timeout;
  private readonly running = new Map<number, { controller: AbortController; done: Promise<void> }>();
  private filling = Promise.resolve();
  private sweepingNow = Promise.resolve();
  private stopping = false;

  constructor(
    private readonly database: Database,
    private readonly dataDir: string,
    private readonly log: { error(object: unknown, message: string): void } = console,
  ) {}

  /** Starts: removes files no job holds, then sweeps now and every few seconds. */
  async start(): Promise<void> {
    this.stopping = false;
    await this.removeStrayFiles().catch((error: unknown) =>
      this.log.error({ err: error }, 'Export files check failed'),
    );
    this.sweep();
    this.sweeping = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeping.unref();
  }

  /** Stops every job this process runs: each is marked failed (it does not resume) and its partial file removed. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.sweeping);
    await this.sweepingNow;
    await this.filling;
    for (const { controller } of this.running.values()) controller.abort('stopping' satisfies StopReason);
    await Promise.all([...this.running.values()].map((job) => job.done));
  }

  /** A job was queued: run it soon, here or in whichever process has room first. */
  kick(): void {
    this.fill();
  }

  /** Stops a job this process runs at once (its cancel was recorded by the caller). */
  cancel(id: number): void {
    this.running.get(id)?.controller.abort('cancelled' satisfies StopReason);
  }

  private sweep(): void {
    this.sweepingNow = this.sweepOnce()
      .catch((error: unknown) => this.log.error({ err: error }, 'Export sweep failed'))
      .finally(() => this.fill());
  }

  /** Jobs whose process died are failed, expired files removed; each file after its row says so. */
  private async sweepOnce(): Promise<void> {
    const lost = await this.database.rows<{ id: number | string }>(
      sql`update export_jobs set status = 'failed', message = ${LOST_MESSAGE}, finished_at = now()
        where status = 'running' and heartbeat_at < now() - make_interval(secs => ${EXPORT_STALE_AFTER_MS / 1000})
        returning id`,
    );
    const expired = await this.database.rows<{ id: number | string }>(
      sql`update export_jobs set file_removed_at = now()
        where status = 'succeeded' and expires_at <= now() and file_removed_at is null returning id`,
    );
    for (const { id } of [...lost, ...expired]) await rm(exportPath(this.dataDir, Number(id)), { force: true });
  }

  /** Files of the exports directory that no running or downloadable job holds (a crash between the two). */
  private async removeStrayFiles(): Promise<void> {
    const names = await readdir(exportsDir(this.dataDir)).catch(() => [] as string[]);
    if (names.length === 0) return;
    const ids = names.filter((name) => /^\d+$/.test(name));
    const kept = await this.database.rows<{ id: number | string }>(
      sql`select id from export_jobs where id = any(${pgArrayLiteral(ids)}::bigint[])
        and (status = 'running' or (status = 'succeeded' and file_removed_at is null))`,
    );
    const keep = new Set(kept.map((row) => String(row.id)));
    for (const name of names) if (!keep.has(name)) await rm(path.join(exportsDir(this.dataDir), name), { force: true });
  }

  /** Claims queued jobs, oldest first, while this process has room. */
  private fill(): void {
    this.filling = this.filling
      .then(async () => {
        while (!this.stopping && this.running.size < JOBS_AT_ONCE) {
          const [claimed] = await this.database.rows<JobRow>(
            sql`update export_jobs set status = 'running', started_at = now(), heartbeat_at = now()
              where id = (select id from export_jobs where status = 'queued' order by id limit 1 for update skip locked)
              returning *`,
          );
          if (!claimed) return;
          const id = Number(claimed.id);
          const controller = new AbortController();
          const done = this.run(claimed, controller).finally(() => {
            this.running.delete(id);
            this.fill();
          });
          this.running.set(id, { controller, done });
        }
      })
      .catch((error: unknown) => this.log.error({ err: error }, 'Claiming an export job failed'));
  }

  /** What the job writes, read again with the rights its user holds now. */
  private async planOf(row: JobRow): Promise<ExportPlan> {
    const entity = findEntity(row.entity);
    const actor = await activeActor(this.database, row.user_id === null ? null : Number(row.user_id));
    if (!entity || !actor) throw new Refused('The account that asked for this export is no longer active');
    const missing = missingPermissions(actor, exportPermissions(entity) ?? []);
    if (missing.length > 0) throw new Refused(`Your role no longer allows this export: it needs ${missing.join(', ')}`);
    // The job may have been asked of another process, naming a field defined there a moment ago (decision 0038).
    await this.database.caughtUp();
    try {
      return await exportPlan(this.database, entity, actor, row.params);
    } catch (error) {
      if (error instanceof QueryError || error instanceof DomainError) {
        throw new Refused(`The list can no longer be exported as asked: ${error.message}`);
      }
      throw error;
    }
  }

  /** Writes the file, its progress every second; ends the job as it went. */
  private async run(row: JobRow, controller: AbortController): Promise<void> {
    const id = Number(row.id);
    const file = exportPath(this.dataDir, id);
    const progress: Progress = { rows: 0, bytes: 0 };
    let writing = false;
    const ticking = setInterval(() => {
      if (writing) return;
      writing = true;
      this.tick(id, progress, controller)
        .catch((error: unknown) => this.log.error({ err: error, exportId: id }, 'Export progress failed'))
        .finally(() => {
          writing = false;
        });
    }, PROGRESS_MS);
    try {
      const plan = await this.planOf(row);
      // The rows from the read replica when there is one that holds what the asker saw (decision 0048).
      const reader = await currentReader(this.database, REPLICA_WAIT_MS);
      const total = await countRows(reader, plan.described, plan.query, 'estimated', plan.scope);
      await this.database.rows(
        sql`update export_jobs set rows_total = ${total.total}, total_exact = ${total.totalExact} where id = ${id}`,
      );
      await mkdir(exportsDir(this.dataDir), { recursive: true });
      const csv = row.format === 'csv';
      const stream = exportStream(reader, plan.described, plan.query, plan.scope, row.format, plan.columns, 'sql', {
        onRows: csv ? undefined : (rows) => (progress.rows += rows),
      });
      await pipeline(stream, counter(progress, csv), createWriteStream(file), { signal: controller.signal });
      clearInterval(ticking);
      await this.database.rows(
        sql`update export_jobs set status = 'succeeded', rows_written = ${progress.rows}, bytes = ${progress.bytes},
            rows_total = ${progress.rows}, total_exact = true, finished_at = now(), heartbeat_at = now(),
            expires_at = now() + make_interval(hours => ${EXPORT_FILE_HOURS})
          where id = ${id} and status = 'running'`,
      );
    } catch (error) {
      clearInterval(ticking);
      const reason = controller.signal.aborted ? (controller.signal.reason as StopReason) : undefined;
      const [status, message] =
        reason === 'cancelled'
          ? (['cancelled', CANCELLED_MESSAGE] as const)
          : reason === 'stopping'
            ? (['failed', LOST_MESSAGE] as const)
            : error instanceof Refused
              ? (['failed', error.message] as const)
              : (['failed', `The export stopped on an error: ${(error as Error).message}`] as const);
      if (!reason && !(error instanceof Refused)) this.log.error({ err: error, exportId: id }, 'Export job failed');
      await rm(file, { force: true });
      // Unless another process has failed it meanwhile (its heartbeat seemed stale): that one's word stays.
      await this.database.rows(
        sql`update export_jobs set status = ${status}, message = ${message}, rows_written = ${progress.rows},
            bytes = 0, finished_at = now(), heartbeat_at = now()
          where id = ${id} and status = 'running'`,
      );
    }
  }

  /** Progress and heartbeat; stops the job when a cancel was asked (another process's) or it is no longer running. */
  private async tick(id: number, progress: Progress, controller: AbortController): Promise<void> {
    const [row] = await this.database.rows<{ cancel_requested: boolean }>(
      sql`update export_jobs set rows_written = ${progress.rows}, bytes = ${progress.bytes}, heartbeat_at = now()
        where id = ${id} and status = 'running' returning cancel_requested`,
    );
    if (!row || row.cancel_requested) controller.abort('cancelled' satisfies StopReason);
  }
}
