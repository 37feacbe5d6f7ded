import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { findEntity } from '@data-platform/shared/entities/registry';
import {
  activeImportStatuses,
  IMPORT_UPLOAD_HOURS,
  type ImportJob,
  type ImportProblem,
  type ImportStatus,
  type StartImport,
  startImportSchema,
} from '@data-platform/shared/imports';
import { type SQL, sql } from 'drizzle-orm';
import { activeActor } from '../auth/active-actor.ts';
import { recordAudit } from '../auth/audit.ts';
import { currentDescription } from '../crud/custom-fields.ts';
import {
  type CreateParts,
  createRecords,
  createRecordsParts,
  deleteRecord,
  deleteUntouchedRecords,
  updateRecord,
} from '../crud/records.ts';
import { pgArrayLiteral } from '../crud/sql-fragments.ts';
import type { Database, DatabaseKind, Executor } from '../db/client.ts';
import { mapDatabaseError } from '../db/errors.ts';
import { DomainError } from '../domain/errors.ts';
import { importJobDetails } from './import-audit.ts';
import { fileScanSchema, formatsFromScan, suggestedReadings, withFormats } from './import-formats.ts';
import { KeysSeen, type PreparedRow, planRows, prepareRows, type RowPlan } from './import-rows.ts';
import { inspectSource, rowsUnderHeading, sourceRows, uploadPath } from './import-source.ts';
import { type TableRow, UnreadableTable, yieldToOthers } from './table.ts';

/**
 * Import jobs, run in the background by the server process that claims
 * them. A job reads its stored file as a stream, in batches:
 *
 * - checking: one pass over the file counts its rows and decides how each
 *   column writes its dates and numbers; nothing is written;
 * - writing: each batch is checked and written in one short transaction of
 *   its own, with what it wrote (`import_records`), the rows it set aside
 *   (`import_bad_rows`) and the job's counts, so that after a crash the job
 *   says exactly what was written; between batches other requests run (on
 *   PGlite too, whose one connection a transaction holds). All or nothing,
 *   the first bad row ends the writing: the job checks the rest (checking
 *   again), so that every bad row is listed, then is taken back;
 * - undoing (an undo, a failed or cancelled all-or-nothing job): what it
 *   created is deleted and what it updated restored, each only when its
 *   version is still the one the job left (the version check of every write).
 *   A job taken back before it finished leaves no history entry of the
 *   records it created (docs/decisions/0044); an undo leaves each a deleted
 *   entry, restorable as any deleted record.
 *
 * A job whose process died stops beating: a server that starts, or a running
 * one sweeping, takes it over: a check starts again, a skip-bad-rows write
 * goes on after its last committed row (`resumed`), an all-or-nothing job
 * that began writing is taken back (`rolledBack`).
 */

/**
 * Rows per batch, one transaction each: the first batch's size, then sized
 * so that a batch's transaction takes about the database's `targetMs`, with
 * at most `maxRows` rows. On PGlite, which runs one statement at a time,
 * others wait at most that long for the database; on PostgreSQL they do not
 * wait for it at all, and larger batches spread each one's fixed costs (its
 * statements, commit and bookkeeping) over more rows: 100,000 companies in
 * 10.8 s instead of 12.5 s. A batch grows at most `MAX_GROWTH` times the
 * one before.
 *
 * Where the database is another process (`overlaps`), the next batch is
 * read and checked while this one is written (`readAhead`), and is sized
 * as it starts: as many rows as Node checks in the time the database takes
 * to write this batch, each at its last measured rate (`READY_SHARE` of
 * it), so that the database does not wait for Node. Growing 4 times a batch
 * regardless, a batch being checked (cold code: 40-90 µs a row) outlasted
 * the smaller one being written (40-50 µs a row) and the database waited
 * 95 ms of a 10,000-row job's 600.
 */
export const BATCH_ROWS = 100;
const BATCH_SIZING: Record<DatabaseKind, BatchSizing> = {
  pglite: { targetMs: 100, maxRows: 2_000, overlaps: false },
  postgres: { targetMs: 400, maxRows: 5_000, overlaps: true },
};
interface BatchSizing {
  targetMs: number;
  maxRows: number;
  /** Whether the database writes while Node checks the next batch (another process). */
  overlaps: boolean;
}
/** The share of the database's time for a batch that checking the next one should take: a margin for the rates' noise. */
const READY_SHARE = 0.9;
const MIN_BATCH_ROWS = 25;
const MAX_GROWTH = 4;

/** Rows of the batch after one of `rows` rows written in `took` ms: about `targetMs` of the database's time. */
function writtenBatchRows(rows: number, took: number, { targetMs, maxRows }: BatchSizing): number {
  const sized = Math.max(MIN_BATCH_ROWS, (rows * targetMs) / Math.max(1, took));
  return Math.round(Math.min(maxRows, rows * MAX_GROWTH, sized));
}

/**
 * Rows of the batch read and checked while a batch of `rows` rows is written
 * (`overlaps`): as many as Node checks, at `checkMsPerRow`, in `READY_SHARE`
 * of the time the database writes those at `writeMsPerRow`; within the
 * bounds of `writtenBatchRows`.
 */
function overlappedBatchRows(rows: number, checkMsPerRow: number, writeMsPerRow: number, sizing: BatchSizing): number {
  const ready = (rows * writeMsPerRow * READY_SHARE) / Math.max(checkMsPerRow, 1e-3);
  const target = sizing.targetMs / Math.max(writeMsPerRow, 1e-3);
  return Math.round(Math.max(MIN_BATCH_ROWS, Math.min(sizing.maxRows, rows * MAX_GROWTH, target, ready)));
}
/** Problems a job lists; `problemCount` counts them all. */
const MAX_LISTED_PROBLEMS = 200;
/** Records of the ledger an undo takes back per round: the untouched ones it created in one transaction. */
const TAKE_BACK_PAGE = 1_000;
/** Records an undo lists as kept; `keptCount` counts them all. */
const MAX_LISTED_KEPT = 200;
/** A job whose heartbeat is older than this has lost its process. */
export const STALE_AFTER_MS = 12_000;
const HEARTBEAT_MS = 3_000;
/**
 * A pause after each batch on PGlite: requests that arrived during it get
 * their statements in before the next batch's (an in-process PGlite runs
 * statements one at a time, in the order they come). On PostgreSQL the job
 * holds one connection of the pool and others never wait for it.
 */
const PAUSE_MS = 5;
const pause = () => new Promise<void>((resolve) => setTimeout(resolve, PAUSE_MS));
const SWEEP_MS = 4_000;
/** How often a runner's sweep also removes expired uploads: a day's limit needs no finer grain than a minute. */
const FORGET_EVERY_MS = 60_000;

interface JobRow {
  id: number | string;
  user_id: number | string | null;
  entity: string;
  file_name: string;
  status: ImportStatus;
  settings: StartImport | null;
  rows_total: number | null;
  rows_checked: number;
  rows_done: number;
  last_row: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  failed: number;
  duplicates_in_file: number;
  duplicates_stored: number;
  problems: ImportProblem[];
  problem_count: number;
  message: string | null;
  recovery: 'resumed' | 'rolledBack' | null;
  undo: ImportJob['undo'];
  cancel_requested: boolean;
  ip: string | null;
  created_at: string | Date;
  started_at: string | Date | null;
  writing_started_at: string | Date | null;
  finished_at: string | Date | null;
  seconds_writing: number | null;
  seconds_checking: number | null;
  /** What a preview that read the whole file found (`FileScan`), null when none did. */
  scan: unknown;
}

const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

/** A batch as `readAhead` answers it: its rows, what `prepare` made of them, and Node's time for both (ms). */
interface ReadBatch<T> {
  batch: TableRow[];
  prepared: T;
  ms: number;
}

/**
 * The batches of `batches`, each with what `prepare` makes of it, the next
 * one read and prepared while the caller writes the one it has: the file's
 * parsing and the rows' checks (Node) run while the database writes (on
 * PostgreSQL, another process). Batches are prepared one after the other,
 * in order (a row's repeats in the file are found against the rows before it).
 * Without `ahead` each is read when asked for: a batch whose references may
 * name records the batch before creates (a reference to its own kind of
 * record) is prepared after that one is written. `sizeNext` is told of each
 * batch as it is answered, just before the next one starts being read (to
 * size it). `close` ends the reading (its file) and waits for a batch still
 * being prepared, whose failure is then of no one's concern.
 */
function readAhead<T>(
  batches: AsyncGenerator<TableRow[]>,
  prepare: (batch: TableRow[]) => Promise<T>,
  ahead: boolean,
  sizeNext: (current: ReadBatch<T>) => void = () => {},
) {
  const read = async (): Promise<ReadBatch<T> | undefined> => {
    const started = performance.now();
    const next = await batches.next();
    if (next.done) return undefined;
    const prepared = await prepare(next.value);
    return { batch: next.value, prepared, ms: performance.now() - started };
  };
  const start = () => {
    const started = read();
    // A failure is the caller's when it asks for the batch; until then it is no unhandled rejection.
    started.catch(() => {});
    return started;
  };
  let pending = ahead ? start() : undefined;
  return {
    async next(): ReturnType<typeof read> {
      const current = await (pending ?? read());
      if (ahead && current !== undefined) sizeNext(current);
      pending = ahead && current !== undefined ? start() : undefined;
      return current;
    },
    async close(): Promise<void> {
      await pending?.catch(() => undefined);
      pending = undefined;
      await batches.return(undefined);
    },
  };
}

/** The job as the API answers it: progress with its rate and time left, and the result. */
export function jobOf(row: JobRow): ImportJob {
  const writing = row.status === 'writing';
  const seconds = writing ? row.seconds_writing : row.status === 'checking' ? row.seconds_checking : null;
  const done = writing ? row.rows_done : row.rows_checked;
  const rate = seconds && seconds > 0 ? done / seconds : null;
  const total = row.rows_total;
  return {
    id: Number(row.id),
    entity: row.entity,
    fileName: row.file_name,
    status: row.status,
    mode: row.settings?.mode ?? null,
    duplicates: row.settings?.duplicates ?? null,
    rowsTotal: total,
    rowsChecked: row.rows_checked,
    rowsDone: row.rows_done,
    rowsPerSecond: rate === null ? null : Math.round(rate),
    secondsLeft: rate && writing && total !== null ? Math.max(0, Math.round((total - row.rows_done) / rate)) : null,
    created: row.created,
    updated: row.updated,
    unchanged: row.unchanged,
    skipped: row.skipped,
    failed: row.failed,
    duplicatesInFile: row.duplicates_in_file,
    duplicatesStored: row.duplicates_stored,
    problems: row.problems,
    problemCount: row.problem_count,
    message: row.message,
    recovery: row.recovery,
    badRowsUrl: row.failed > 0 ? `/api/v1/imports/${row.id}/bad-rows` : null,
    undo: row.undo,
    createdAt: iso(row.created_at) as string,
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
  };
}

/** A job's row with the seconds it has been checking and writing. */
/** A job's row with the seconds it has spent checking and writing, as `jobOf` reads it. */
const jobColumns = sql`*, extract(epoch from now() - writing_started_at)::float8 as seconds_writing,
  extract(epoch from now() - started_at)::float8 as seconds_checking`;

export async function readJob(database: Database, id: number, executor?: Executor): Promise<JobRow | undefined> {
  const [row] = await database.rows<JobRow>(sql`select ${jobColumns} from imports where id = ${id}`, executor);
  return row;
}

/**
 * A page of a user's started imports (uploads never imported left out), newest first, of one entity or all:
 * at most `limit`, older than the job `before` when given, and the id to pass as `before` for the next page
 * (null when none is left: one row more than the page is read to know, never a count).
 */
export async function listJobs(
  database: Database,
  userId: number | null,
  { entity, before, limit }: { entity?: string; before?: number; limit: number },
): Promise<{ rows: JobRow[]; nextBefore: number | null }> {
  const rows = await database.rows<JobRow>(
    sql`select ${jobColumns} from imports where user_id = ${userId} and status <> 'uploaded'
      ${entity === undefined ? sql`` : sql`and entity = ${entity}`}
      ${before === undefined ? sql`` : sql`and id < ${before}`}
      order by id desc limit ${limit + 1}`,
  );
  if (rows.length <= limit) return { rows, nextBefore: null };
  const page = rows.slice(0, limit);
  return { rows: page, nextBefore: Number(page.at(-1)?.id) };
}

/** A page of what a job wrote, newest first, and how to strike records off its ledger in a transaction. */
interface LedgerPage {
  records: { id: number; created: boolean; previous: Record<string, unknown> | null; version: number }[];
  forget(ids: number[], tx: Executor): Promise<void>;
}

/** A job stopped on purpose (a cancel, its server closing): the batch in progress is not begun. */
class Stopped extends Error {}

/** What one run of a job keeps in memory, mirroring the counts committed with each batch. */
interface Run {
  /** Rows the next batch takes. */
  batchRows: number;
  row: JobRow;
  id: number;
  /** The plan, its columns' formats decided over the whole file before the first batch is read. */
  plan: RowPlan;
  /** The file's rows under its heading, counted by the pass that decides the formats (undefined before it). */
  rowCount?: number;
  settings: StartImport;
  file: string;
  problems: ImportProblem[];
  problemCount: number;
  /** Whether the job was asked to stop, as the last batch written alone read it (`writeCreatesAlone`); undefined: ask. */
  cancelSeen?: boolean;
}

/** What a batch adds to its job's counts. */
interface BatchCounts {
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  failed: number;
  inFile: number;
  stored: number;
}

/** The job's progress after a batch of `rows` rows through row `last`: committed with what the batch wrote. */
function progressSql(run: Run, rows: number, last: number, counts: BatchCounts): SQL {
  return sql`update imports set rows_done = rows_done + ${rows}, last_row = greatest(last_row, ${last}),
      created = created + ${counts.created}, updated = updated + ${counts.updated},
      unchanged = unchanged + ${counts.unchanged}, skipped = skipped + ${counts.skipped},
      failed = failed + ${counts.failed}, duplicates_in_file = duplicates_in_file + ${counts.inFile},
      duplicates_stored = duplicates_stored + ${counts.stored},
      problems = ${JSON.stringify(run.problems)}::jsonb, problem_count = ${run.problemCount}, heartbeat_at = now()
    where id = ${run.id}`;
}

/** Problems of a row, flattened; the first are listed. */
function noteProblems(run: Run, row: PreparedRow): void {
  for (const [field, message] of Object.entries(row.problems)) {
    run.problemCount += 1;
    if (run.problems.length < MAX_LISTED_PROBLEMS) run.problems.push({ row: row.row, field, message });
  }
}

const hasProblems = (row: PreparedRow) => Object.keys(row.problems).length > 0;

/** A batch's inserts built ahead (`createRecordsParts`) for the rows that create records. */
interface BuiltInserts {
  rows: readonly PreparedRow[];
  parts: CreateParts[];
}

/** A batch as checked, with its inserts built. */
interface PreparedBatch {
  rows: PreparedRow[];
  inserts: BuiltInserts;
}

const sameRows = (a: readonly PreparedRow[], b: readonly PreparedRow[]): boolean =>
  a.length === b.length && a.every((row, i) => row === b[i]);

/**
 * A batch's rows by what writing them does (records to create, stored
 * records to update, rows set aside), and the counts known before anything
 * is written: created and updated are counted as they are written.
 */
function sortRows(run: Run, rows: readonly PreparedRow[]) {
  const counts: BatchCounts = { created: 0, updated: 0, unchanged: 0, skipped: 0, failed: 0, inFile: 0, stored: 0 };
  const creates: PreparedRow[] = [];
  const updates: { row: PreparedRow; match: NonNullable<PreparedRow['match']> }[] = [];
  const bad: PreparedRow[] = [];
  for (const row of rows) {
    if (row.match) counts.stored += 1;
    if (hasProblems(row)) {
      if (run.settings.duplicates && Object.keys(row.problems).includes(run.settings.duplicates.key))
        counts.inFile += 1;
      bad.push(row);
    } else if (row.action === 'skip') counts.skipped += 1;
    else if (row.action === 'unchanged') counts.unchanged += 1;
    else if (row.action === 'update' && row.match) updates.push({ row, match: row.match });
    else creates.push(row);
  }
  counts.failed = bad.length;
  return { creates, updates, bad, counts };
}

const errorText = (problems: Record<string, string>) =>
  Object.entries(problems)
    .map(([field, message]) => `${field}: ${message}`)
    .join('; ');

/** The message of a write the database or a version check refused. */
function writeFailure(error: unknown): string {
  const mapped = error instanceof DomainError ? error : mapDatabaseError(error);
  if (!mapped) throw error;
  const fields = Object.entries(mapped.fields ?? {});
  return fields.length > 0 ? errorText(Object.fromEntries(fields)) : mapped.message;
}

/**
 * Removes the files under `DATA_DIR/imports` that nothing will read: a file
 * named by an import whose row is gone (a process stopped between deleting an
 * old upload's row and its file) or whose job has ended, and a partial upload
 * (`tmp-…`, left by a process stopped mid-upload) older than
 * IMPORT_UPLOAD_HOURS, so that another process's upload in progress is never
 * touched. Other names are left alone. Answers the names removed.
 */
export async function removeStrayUploads(database: Database, dataDir: string): Promise<string[]> {
  const dir = path.join(dataDir, 'imports');
  const names = await readdir(dir).catch(() => [] as string[]);
  const ids = names.filter((name) => /^\d+$/.test(name));
  const held =
    ids.length === 0
      ? []
      : await database.rows<{ id: number | string }>(
          sql`select id from imports where id = any(${pgArrayLiteral(ids)}::bigint[])
            and status = any(${pgArrayLiteral(['uploaded', ...activeImportStatuses])}::text[])`,
        );
  const keep = new Set(held.map((row) => String(row.id)));
  const oldest = Date.now() - IMPORT_UPLOAD_HOURS * 3_600_000;
  const removed: string[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const stray = /^\d+$/.test(name)
      ? !keep.has(name)
      : name.startsWith('tmp-') && (await modifiedBefore(file, oldest));
    if (!stray) continue;
    await rm(file, { force: true });
    removed.push(name);
  }
  return removed;
}

/**
 * Removes the uploads no import was started from within IMPORT_UPLOAD_HOURS,
 * row first, then file: a file without its row is never read, and a row
 * never points at a removed file. Any process may do it; each removes the
 * files of the rows it deleted. Answers the ids removed.
 */
export function forgetOldUploads(database: Database, dataDir: string): Promise<number[]> {
  return forgetUploads(database, dataDir, sql`created_at < now() - make_interval(hours => ${IMPORT_UPLOAD_HOURS})`);
}

/** Removes an upload no import was started from (one refused as its import was asked for), row first, then file. */
export async function forgetUpload(database: Database, dataDir: string, id: number): Promise<void> {
  await forgetUploads(database, dataDir, sql`id = ${id}`);
}

async function forgetUploads(database: Database, dataDir: string, which: SQL): Promise<number[]> {
  const removed = await database.rows<{ id: number | string }>(
    sql`delete from imports where status = 'uploaded' and ${which} returning id`,
  );
  const ids = removed.map((row) => Number(row.id));
  for (const id of ids) await rm(uploadPath(dataDir, id), { force: true });
  return ids;
}

async function modifiedBefore(file: string, time: number): Promise<boolean> {
  return stat(file).then(
    (found) => found.mtimeMs < time,
    () => false,
  );
}

/** Runs the jobs this process claims, one at a time, and takes over those whose process died. */
export class ImportRunner {
  private sweeping?: NodeJS.Timeout;
  private beating?: NodeJS.Timeout;
  private current?: number;
  private queue = Promise.resolve();
  private stopping = false;
  private readonly wanted = new Set<number>();
  /** When this process last removed expired uploads (never, at first). */
  private forgotAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly database: Database,
    private readonly dataDir: string,
    private readonly log: { error(object: unknown, message: string): void } = console,
  ) {}

  /** Starts taking jobs: now, and every few seconds those whose heartbeat stopped. */
  start(): void {
    this.stopping = false;
    removeStrayUploads(this.database, this.dataDir).catch((error: unknown) =>
      this.log.error({ err: error }, 'Removing stray import files failed'),
    );
    this.sweep();
    this.sweeping = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeping.unref();
    this.beating = setInterval(() => {
      if (this.current === undefined) return;
      this.database
        .rows(sql`update imports set heartbeat_at = now() where id = ${this.current}`)
        .catch((error: unknown) => this.log.error({ err: error }, 'Import heartbeat failed'));
    }, HEARTBEAT_MS);
    this.beating.unref();
  }

  /** Stops after the batch in progress; the job is left for a server to take over. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.sweeping);
    clearInterval(this.beating);
    await this.queue;
  }

  /** Runs the job soon (a job just queued by this process). */
  kick(id: number): void {
    this.enqueue(id);
  }

  private sweep(): void {
    if (Date.now() - this.forgotAt >= FORGET_EVERY_MS) {
      this.forgotAt = Date.now();
      forgetOldUploads(this.database, this.dataDir).catch((error: unknown) =>
        this.log.error({ err: error }, 'Removing old uploads failed'),
      );
    }
    this.database
      .rows<{ id: number | string }>(
        sql`select id from imports
          where status = any(${pgArrayLiteral([...activeImportStatuses])}::text[])
            and (heartbeat_at is null or heartbeat_at < now() - make_interval(secs => ${STALE_AFTER_MS / 1000}))
          order by id`,
      )
      .then((rows) => {
        for (const row of rows) this.enqueue(Number(row.id));
      })
      .catch((error: unknown) => this.log.error({ err: error }, 'Import sweep failed'));
  }

  private enqueue(id: number): void {
    if (this.wanted.has(id) || this.stopping) return;
    this.wanted.add(id);
    this.queue = this.queue.then(async () => {
      try {
        if (!this.stopping) await this.claimAndRun(id);
      } catch (error) {
        this.log.error({ err: error, importId: id }, 'Import job failed');
        await this.finish(id, 'failed', `The import stopped on an error: ${(error as Error).message}`).catch(() => {});
      } finally {
        this.wanted.delete(id);
        this.current = undefined;
      }
    });
  }

  /** Claims the job unless a living process holds it (a fresh heartbeat), then runs it from its status. */
  private async claimAndRun(id: number): Promise<void> {
    const [claimed] = await this.database.rows<{ id: number }>(
      sql`update imports set heartbeat_at = now()
        where id = ${id} and status = any(${pgArrayLiteral([...activeImportStatuses])}::text[])
          and (heartbeat_at is null or heartbeat_at < now() - make_interval(secs => ${STALE_AFTER_MS / 1000}))
        returning id`,
    );
    if (!claimed) return;
    this.current = id;
    const row = (await readJob(this.database, id)) as JobRow;
    const entity = findEntity(row.entity);
    // The importer as they are now: a job runs with the rights its user still holds.
    const actor = await activeActor(this.database, row.user_id === null ? null : Number(row.user_id));
    if (!entity || !actor || !row.settings) {
      await this.finish(id, 'failed', 'The importer can no longer import: their account is not active');
      return;
    }
    const settings = startImportSchema.parse(row.settings);
    // The job may have been asked of another process, with a field defined there a moment ago (decision 0038).
    await this.database.caughtUp();
    const described = await currentDescription(this.database, entity);
    let plan: RowPlan;
    try {
      // A job started before the order or the mark was kept reads as a request without a language would.
      plan = planRows(described, actor, settings, suggestedReadings(undefined, settings));
    } catch (error) {
      const message = error instanceof DomainError ? error.message : String(error);
      await this.finish(id, 'failed', `The mapping no longer fits: ${message}`);
      return;
    }
    const run: Run = {
      batchRows: BATCH_ROWS,
      row,
      id,
      plan,
      settings,
      file: uploadPath(this.dataDir, id),
      problems: [...row.problems],
      problemCount: row.problem_count,
    };
    // Only a job under way when its process died is found checking, writing or undoing with an undo begun.
    switch (row.status) {
      case 'queued':
        return this.begin(run);
      case 'checking':
      case 'writing':
        // All or nothing, once writing began (a job checking after writing has met a bad row): taken back.
        if (settings.mode === 'allOrNothing' && row.writing_started_at !== null) {
          await this.setRecovery(id, 'rolledBack');
          await this.takeBack(
            run,
            'rolledBack',
            'The server stopped during the import; the rows it had written were taken back',
          );
          return;
        }
        await this.setRecovery(id, 'resumed');
        return row.status === 'checking' ? this.begin(run) : this.write(run);
      case 'undoing':
        if (row.undo !== null) await this.setRecovery(id, 'resumed');
        // An undo follows a finished job; a job taken back before it finished ends rolled back, with its message.
        if (row.finished_at === null) await this.takeBack(run, 'rolledBack', row.message);
        else await this.takeBack(run, 'undone', null);
        return;
      default:
        return;
    }
  }

  private async setRecovery(id: number, recovery: 'resumed' | 'rolledBack'): Promise<void> {
    await this.database.rows(sql`update imports set recovery = ${recovery} where id = ${id}`);
  }

  private async finish(id: number, status: ImportStatus, message: string | null): Promise<void> {
    await this.database.rows(
      sql`update imports set status = ${status}, message = ${message}, finished_at = now(), heartbeat_at = now() where id = ${id}`,
    );
    if (
      status === 'succeeded' ||
      status === 'undone' ||
      status === 'rolledBack' ||
      status === 'failed' ||
      status === 'cancelled'
    ) {
      // The file is kept while the job can still be resumed; a finished job needs only its rows.
      await rm(uploadPath(this.dataDir, id), { force: true });
    }
  }

  /** The rows under the file's heading, as they are read. */
  private async rows(run: Run): Promise<AsyncGenerator<TableRow>> {
    const source = await inspectSource(run.file, run.row.file_name);
    return rowsUnderHeading(
      sourceRows(run.file, source, { sheet: run.settings.sheet, maxRows: Number.POSITIVE_INFINITY }),
      run.settings.headerRow,
      () => {},
    );
  }

  /**
   * The rows under the file's heading, in batches; the first time, after a
   * pass over the whole file that decides how each column writes its dates
   * and numbers (as the preview did over the same file).
   */
  private async *batches(run: Run): AsyncGenerator<TableRow[]> {
    await this.decideFormats(run);
    let batch: TableRow[] = [];
    for await (const row of await this.rows(run)) {
      batch.push(row);
      if (batch.length >= run.batchRows) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  /**
   * Decides how each column writes its dates and numbers, once per run, over
   * the whole file (from what a preview found reading all of it, when one
   * did with the job's sheet and heading row); answers its rows.
   */
  private async decideFormats(run: Run): Promise<number> {
    if (run.rowCount === undefined) {
      const scan = fileScanSchema.safeParse(run.row.scan);
      const decided =
        (scan.success ? formatsFromScan(run.plan, scan.data, run.settings) : undefined) ??
        (await withFormats(run.plan, await this.rows(run)));
      run.plan = decided.plan;
      run.rowCount = decided.rowCount;
    }
    return run.rowCount;
  }

  /** Whether the job was asked to stop; the server closing stops it too (left for another to take over). */
  private async cancelled(id: number, run?: Run): Promise<boolean> {
    if (this.stopping) throw new Stopped();
    // Read by the batch just written, as it committed: nothing has been done since that a cancel could stop.
    const seen = run?.cancelSeen;
    if (run) run.cancelSeen = undefined;
    if (seen !== undefined) return seen;
    const [row] = await this.database.rows<{ cancel_requested: boolean }>(
      sql`select cancel_requested from imports where id = ${id}`,
    );
    return row?.cancel_requested ?? false;
  }

  /** A new job: checked first in all-or-nothing mode, then written. */
  private async begin(run: Run): Promise<void> {
    const { id } = run;
    await this.database.rows(
      sql`update imports set status = 'checking', started_at = coalesce(started_at, now()), rows_checked = 0,
          problems = '[]'::jsonb, problem_count = 0 where id = ${id}`,
    );
    await this.database.rows(sql`delete from import_bad_rows where import_id = ${id}`);
    run.problems = [];
    run.problemCount = 0;
    try {
      if (!(await this.check(run))) return;
      await this.write(run);
    } catch (error) {
      if (error instanceof Stopped) return;
      if (error instanceof UnreadableTable) {
        await this.finish(id, 'failed', error.message);
        return;
      }
      throw error;
    }
  }

  /**
   * The pass over the whole file that decides the columns' date and number
   * formats and counts the rows; false when the job was cancelled meanwhile.
   * Rows are checked as they are written (`write`): an all-or-nothing job
   * that meets a bad row writes no more, checks the rest, and takes back
   * what it wrote (docs/decisions/0044).
   */
  private async check(run: Run): Promise<boolean> {
    const { id } = run;
    const total = await this.decideFormats(run);
    if (await this.cancelled(id)) {
      await this.finish(id, 'cancelled', 'Cancelled before anything was written');
      return false;
    }
    await this.database.rows(
      sql`update imports set rows_checked = ${total}, rows_total = ${total}, status = 'writing',
        writing_started_at = now(), failed = 0, heartbeat_at = now() where id = ${id}`,
    );
    return true;
  }

  private async keepBadRows(
    id: number,
    rows: readonly PreparedRow[],
    tx: Executor,
    errors?: Map<number, string>,
  ): Promise<void> {
    if (rows.length === 0) return;
    const values = rows.map(
      (row) =>
        sql`(${id}, ${row.row}, ${JSON.stringify(row.cells)}::jsonb, ${errors?.get(row.row) ?? errorText(row.problems)})`,
    );
    await this.database.rows(
      sql`insert into import_bad_rows (import_id, row_number, cells, error) values ${sql.join(values, sql`, `)}
        on conflict (import_id, row_number) do update set cells = excluded.cells, error = excluded.error`,
      tx,
    );
  }

  /**
   * Writes the rows a batch at a time, each batch in its own transaction with
   * what it wrote and the job's counts; resumes after the last row committed.
   * All or nothing, the first batch with a bad row ends the writing: the
   * rest of the file is only checked, every bad row kept, and what was
   * written is taken back.
   */
  private async write(run: Run): Promise<void> {
    const { id, plan, settings } = run;
    run.batchRows = BATCH_ROWS;
    const seen = new KeysSeen();
    const after = (await readJob(this.database, id))?.last_row ?? 0;
    const sizing = BATCH_SIZING[this.database.kind];
    const selfReference = plan.columns.some(({ target }) => target.field.to === plan.entity.name);
    // The time a row of the last batch written took (ms, as Node saw it), for sizing the batches read meanwhile.
    let writeMsPerRow: number | undefined;
    // All or nothing: the bad rows met so far; once there is one, nothing more is written.
    let failed = 0;
    const ahead = readAhead(
      this.batches(run),
      async (batch): Promise<PreparedBatch> => {
        const rows = await prepareRows(this.database, plan, batch, seen);
        // The batch's inserts too, built while the batch before is written (used when the batch is written whole).
        const { creates } = sortRows(run, rows);
        const values = creates.map((row) => row.values);
        return { rows, inserts: { rows: creates, parts: createRecordsParts(plan.entity, values, plan.actor) } };
      },
      !selfReference,
      ({ batch, ms }) => {
        // Sized as it starts to be read, while this one is written (once a write was timed, and while writing).
        if (!sizing.overlaps || writeMsPerRow === undefined || failed > 0) return;
        run.batchRows = overlappedBatchRows(batch.length, ms / batch.length, writeMsPerRow, sizing);
      },
    );
    // Rows read so far: the count of rows checked once the job only checks.
    let read = 0;
    try {
      for (let next = await ahead.next(); next !== undefined; next = await ahead.next()) {
        const { batch } = next;
        const { rows: prepared, inserts } = next.prepared;
        read += batch.length;
        const last = (batch.at(-1) as TableRow).number;
        // Rows written before a restart are read again only for their keys (repeats in the file).
        if (last <= after) continue;
        if (await this.cancelled(id, run)) {
          if (settings.mode === 'allOrNothing') {
            await this.takeBack(run, 'cancelled', 'Cancelled; the rows it had written were taken back');
          } else {
            await this.finish(id, 'cancelled', 'Cancelled; the rows written before stay (Undo takes them back)');
          }
          return;
        }
        const fresh = prepared.filter((row) => row.row > after);
        if (settings.mode === 'allOrNothing' && (failed > 0 || fresh.some(hasProblems))) {
          failed += await this.checkOnly(run, fresh, read, failed === 0);
          run.batchRows = sizing.maxRows;
          continue;
        }
        const began = performance.now();
        const outcome = await this.writeBatch(run, fresh, last, inserts);
        if (outcome === 'failed') return;
        const took = performance.now() - began;
        writeMsPerRow = took / Math.max(1, fresh.length);
        // On PGlite (one thread for both), or where a batch is read only once the one before is written, a
        // batch is sized by the last write alone.
        if (!sizing.overlaps || selfReference) run.batchRows = writtenBatchRows(batch.length, took, sizing);
        if (this.database.kind === 'pglite') await pause();
      }
    } catch (error) {
      if (error instanceof Stopped) return;
      throw error;
    } finally {
      await ahead.close();
    }
    if (failed > 0) {
      await this.takeBack(
        run,
        'failed',
        `${failed} of ${run.rowCount} rows cannot be imported; nothing was imported. Each problem names its row and field; download the bad rows to fix them.`,
      );
      return;
    }
    const final = (await readJob(this.database, id)) as JobRow;
    await this.finish(id, 'succeeded', null);
    const actorId = final.user_id === null ? null : Number(final.user_id);
    await recordAudit(this.database, {
      type: 'recordsImported',
      actorId,
      ip: final.ip ?? '',
      details: importJobDetails(plan.entity.name, final.created, final.updated, id),
    });
  }

  /**
   * An all-or-nothing batch once a bad row is met: nothing written, its bad
   * rows kept and listed with the count of rows checked (`first`: the job is
   * checking from now on). Answers how many were bad.
   */
  private async checkOnly(run: Run, rows: PreparedRow[], checked: number, first: boolean): Promise<number> {
    const bad = rows.filter(hasProblems);
    for (const row of bad) noteProblems(run, row);
    await this.database.db.transaction(async (tx) => {
      await this.keepBadRows(run.id, bad, tx);
      await this.database.rows(
        sql`update imports set ${first ? sql`status = 'checking', ` : sql``}rows_checked = ${checked},
          failed = failed + ${bad.length}, problems = ${JSON.stringify(run.problems)}::jsonb,
          problem_count = ${run.problemCount}, heartbeat_at = now() where id = ${run.id}`,
        tx,
      );
    });
    await yieldToOthers();
    return bad.length;
  }

  /**
   * One batch in one transaction. A row the database refuses is set aside in
   * skip-bad-rows mode (the batch is written again row by row, so that the
   * others are kept); in all-or-nothing mode it fails the job, whose earlier
   * batches are then taken back.
   */
  private async writeBatch(
    run: Run,
    rows: PreparedRow[],
    last: number,
    inserts?: BuiltInserts,
  ): Promise<'written' | 'failed'> {
    const skipBad = run.settings.mode === 'skipBadRows';
    try {
      if (!(inserts && (await this.writeCreatesAlone(run, rows, last, inserts)))) {
        await this.database.db.transaction((tx) => this.writeRows(run, rows, last, tx, inserts));
      }
      return 'written';
    } catch (error) {
      const message = writeFailure(error);
      if (!skipBad) {
        await this.failAndTakeBack(run, `A row could not be written: ${message}`);
        return 'failed';
      }
    }
    // Row by row: each in a transaction of its own with the counts, so a crash still leaves them exact.
    for (const row of rows) {
      try {
        await this.database.db.transaction((tx) => this.writeRows(run, [row], row.row, tx));
      } catch (error) {
        const message = writeFailure(error);
        row.problems = { row: message };
        await this.database.db.transaction((tx) => this.writeRows(run, [row], row.row, tx));
      }
    }
    await this.database.rows(sql`update imports set last_row = greatest(last_row, ${last}) where id = ${run.id}`);
    return 'written';
  }

  /** Writes the rows (bad ones set aside) and commits the counts with them. */
  private async writeRows(
    run: Run,
    rows: PreparedRow[],
    last: number,
    tx: Executor,
    inserts?: BuiltInserts,
  ): Promise<void> {
    const { id, plan } = run;
    const { entity, actor } = plan;
    const { creates, updates, bad, counts } = sortRows(run, rows);
    /** The records it updated, for the ledger. */
    const written: { record: number; row: number; previous: unknown; version: number }[] = [];
    for (const { row, match } of updates) {
      const json = await updateRecord(this.database, entity, match.id, match.version, row.values, actor, tx);
      const version = Number((JSON.parse(json) as { version: number }).version);
      written.push({ record: match.id, row: row.row, previous: row.previous ?? {}, version });
      counts.updated += 1;
    }
    // New records in multi-row inserts, their ids and versions in the rows' order.
    // The statements built ahead when they are for these very rows (a resumed job's first batch may be fewer).
    const built = inserts && sameRows(inserts.rows, creates) ? inserts.parts : undefined;
    const created = await createRecords(
      this.database,
      entity,
      creates.map((row) => row.values),
      actor,
      tx,
      built,
    );
    counts.created = created.length;
    for (const row of bad) noteProblems(run, row);
    if (created.length > 0) {
      // The batch's new records in one row of the ledger, in the file's order (each at version 1).
      await this.database.rows(
        sql`insert into import_created (import_id, first_row, record_ids)
          values (${id}, ${(creates[0] as PreparedRow).row}, ${pgArrayLiteral(created.map((c) => c.id))}::bigint[])`,
        tx,
      );
    }
    if (written.length > 0) {
      // One array per column: a statement of the same text and five parameters whatever the batch's size.
      const array = (values: unknown[], type: SQL) => sql`${pgArrayLiteral(values)}::${type}[]`;
      await this.database.rows(
        sql`insert into import_records (import_id, record_id, row_number, action, previous, version)
          select ${id}, r.record_id, r.row_number, 'updated', r.previous::jsonb, r.version
          from unnest(${array(
            written.map((w) => w.record),
            sql`bigint`,
          )}, ${array(
            written.map((w) => w.row),
            sql`int`,
          )}, ${array(
            written.map((w) => JSON.stringify(w.previous)),
            sql`text`,
          )}, ${array(
            written.map((w) => w.version),
            sql`int`,
          )}) as r(record_id, row_number, previous, version)`,
        tx,
      );
    }
    await this.keepBadRows(id, bad, tx);
    await this.database.rows(progressSql(run, rows.length, last, counts), tx);
  }

  /**
   * A batch whose every row creates a record, or is skipped or unchanged,
   * written by one statement without BEGIN and COMMIT: the records, their
   * history entries, the ledger's row and the job's counts, as the parts of
   * one WITH, atomic as one statement is. It also reads whether the job was
   * asked to stop (`run.cancelSeen`), so the next batch asks no more. False,
   * writing nothing, for any other batch (an update, a bad row, an attached
   * record whose target it must lock, more rows than one insert takes):
   * `writeRows` writes those in a transaction.
   */
  private async writeCreatesAlone(
    run: Run,
    rows: readonly PreparedRow[],
    last: number,
    inserts: BuiltInserts,
  ): Promise<boolean> {
    const { id, plan } = run;
    const { creates, updates, bad, counts } = sortRows(run, rows);
    const part = inserts.parts[0];
    const first = creates[0];
    const alone =
      !plan.entity.attachedTo &&
      updates.length === 0 &&
      bad.length === 0 &&
      inserts.parts.length === 1 &&
      sameRows(inserts.rows, creates);
    if (!alone || !part || !first) return false;
    counts.created = creates.length;
    const [written] = await this.database.rows<{ created: number; cancel: boolean }>(
      sql`with ${part.ctes},
        ledger as (insert into import_created (import_id, first_row, record_ids)
          select ${id}, ${first.row}, array_agg(id order by id) from written),
        progress as (${progressSql(run, rows.length, last, counts)} returning cancel_requested)
        select count(*)::int as created, (select cancel_requested from progress) as cancel from written`,
    );
    // Ids come from a sequence, so in the order the insert read its arrays: the file's (the ledger's order).
    if (written?.created !== creates.length) {
      throw new Error(`An import batch wrote ${written?.created} of its ${creates.length} records`);
    }
    run.cancelSeen = written.cancel;
    return true;
  }

  private async failAndTakeBack(run: Run, message: string): Promise<void> {
    await this.database.rows(
      sql`update imports set problems = ${JSON.stringify(run.problems)}::jsonb, problem_count = ${run.problemCount} where id = ${run.id}`,
    );
    await this.takeBack(run, 'failed', `${message}. Nothing was imported: the rows written before were taken back.`);
  }

  /**
   * The newest of what the job updated, from `import_records` (with what a
   * job before `import_created` created), a page of them.
   */
  private async updatedPage(id: number): Promise<LedgerPage | undefined> {
    const rows = await this.database.rows<{
      record_id: number | string;
      action: string;
      previous: Record<string, unknown> | null;
      version: number;
    }>(
      sql`select record_id, action, previous, version from import_records
        where import_id = ${id} and action in ('created', 'updated') order by row_number desc limit ${TAKE_BACK_PAGE}`,
    );
    if (rows.length === 0) return undefined;
    return {
      records: rows.map((row) => ({
        id: Number(row.record_id),
        created: row.action === 'created',
        previous: row.previous,
        version: row.version,
      })),
      forget: async (ids, tx) => {
        await this.database.rows(
          sql`delete from import_records where import_id = ${id} and record_id = any(${pgArrayLiteral(ids)}::bigint[])`,
          tx,
        );
      },
    };
  }

  /** The newest of the records the job created, from its newest batch in `import_created`, newest first. */
  private async createdPage(id: number): Promise<LedgerPage | undefined> {
    const [batch] = await this.database.rows<{ first_row: number; record_ids: (number | string)[] }>(
      sql`select first_row, record_ids from import_created where import_id = ${id}
        order by first_row desc limit 1`,
    );
    if (!batch) return undefined;
    const ids = batch.record_ids.map(Number);
    return {
      records: ids
        .slice(-TAKE_BACK_PAGE)
        .reverse()
        .map((record) => ({ id: record, created: true, previous: null, version: 1 })),
      forget: async (gone, tx) => {
        await this.database.rows(
          sql`update import_created set record_ids = array(select r from unnest(record_ids) with ordinality u(r, o)
              where not r = any(${pgArrayLiteral(gone)}::bigint[]) order by o)
            where import_id = ${id} and first_row = ${batch.first_row}`,
          tx,
        );
        await this.database.rows(
          sql`delete from import_created where import_id = ${id} and first_row = ${batch.first_row}
            and cardinality(record_ids) = 0`,
          tx,
        );
      },
    };
  }

  /**
   * Takes back a page of what the job wrote: its created records nobody
   * touched since together, in one transaction of a few statements; the
   * others (updated, referred to, changed) one by one, each with its
   * bookkeeping in a transaction of its own. Each is struck off the ledger
   * as it is taken back or kept.
   */
  private async takeBackPage(
    run: Run,
    page: LedgerPage,
    report: NonNullable<ImportJob['undo']>,
    erase: boolean,
  ): Promise<void> {
    const { plan } = run;
    const keep = (recordId: number, reason: string) => {
      report.keptCount += 1;
      if (report.kept.length < MAX_LISTED_KEPT) report.kept.push({ id: recordId, reason });
    };
    const created = page.records.filter((record) => record.created);
    const oneByOne = new Set(page.records.filter((record) => !record.created).map((record) => record.id));
    await this.database.db.transaction(async (tx) => {
      const done = await deleteUntouchedRecords(
        this.database,
        plan.entity,
        created.map((record) => ({ id: record.id, version: record.version })),
        plan.actor.userId,
        tx,
        erase,
      );
      const struck = [...done.deleted, ...done.missing, ...done.changed];
      if (struck.length > 0) await page.forget(struck, tx);
      for (const recordId of done.missing) keep(recordId, 'Deleted since the import');
      for (const recordId of done.changed) keep(recordId, 'Changed since the import');
      for (const recordId of done.referred) oneByOne.add(recordId);
      report.deleted += done.deleted.length;
    });
    for (const record of page.records) {
      if (!oneByOne.has(record.id)) continue;
      const forget = (tx: Executor) => page.forget([record.id], tx);
      try {
        if (record.created) {
          await deleteRecord(
            this.database,
            plan.entity,
            record.id,
            record.version,
            this.dataDir,
            forget,
            plan.actor.userId,
          );
          report.deleted += 1;
        } else {
          await this.database.db.transaction(async (tx) => {
            await updateRecord(
              this.database,
              plan.entity,
              record.id,
              record.version,
              record.previous ?? {},
              plan.actor,
              tx,
            );
            await forget(tx);
          });
          report.restored += 1;
        }
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        keep(record.id, error.kind === 'notFound' ? 'Deleted since the import' : 'Changed since the import');
        await this.database.db.transaction(forget);
      }
    }
  }

  /**
   * Takes back what the job wrote, newest first: deletes the records it
   * created and restores those it updated, each only at the version the job
   * left it (someone's change since is kept, and listed). Each record with
   * its bookkeeping in one transaction, so an undo stopped midway goes on.
   */
  async takeBack(run: Run, status: ImportStatus, message: string | null): Promise<void> {
    const { id } = run;
    // Anything but an undo takes back a job that never finished: its untouched records leave no trace.
    const erase = status !== 'undone';
    await this.database.rows(
      sql`update imports set status = 'undoing', undo = coalesce(undo, ${JSON.stringify({ deleted: 0, restored: 0, kept: [], keptCount: 0 })}::jsonb)
        ${erase ? sql`, message = ${message}` : sql``} where id = ${id}`,
    );
    const report = ((await readJob(this.database, id))?.undo ?? {
      deleted: 0,
      restored: 0,
      kept: [],
      keptCount: 0,
    }) as NonNullable<ImportJob['undo']>;
    // What it updated first (an update may have made a record refer to one it created), then what it created.
    for (const next of [() => this.updatedPage(id), () => this.createdPage(id)]) {
      for (let page = await next(); page !== undefined; page = await next()) {
        if (this.stopping) return;
        await this.takeBackPage(run, page, report, erase);
        await this.database.rows(
          sql`update imports set undo = ${JSON.stringify(report)}::jsonb, heartbeat_at = now() where id = ${id}`,
        );
        await yieldToOthers();
      }
    }
    // Taken back before it finished, the job imported nothing but what was changed since (listed as kept).
    if (erase) {
      await this.database.rows(
        sql`update imports set created = 0, updated = 0, unchanged = 0, skipped = 0 where id = ${id}`,
      );
    }
    const kept =
      report.keptCount > 0
        ? ` ${report.keptCount} record${report.keptCount === 1 ? ' was' : 's were'} changed or deleted since and kept as they are.`
        : '';
    await this.finish(id, status, message === null ? kept.trim() || null : `${message}${kept}`);
  }
}
