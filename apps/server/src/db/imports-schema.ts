import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tableOf } from './schema.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });
const count = (name: string) => integer(name).notNull().default(0);

/**
 * Imports from a file (`/api/v1/imports`): an upload (status `uploaded`,
 * its bytes under DATA_DIR/imports/<id>), then a job over it. The counts and
 * `last_row` are written in the same transaction as each batch of records,
 * so after a crash they say exactly what was written.
 */
export const imports = pgTable(
  'imports',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).references(() => tableOf('users').id, { onDelete: 'set null' }),
    entity: text('entity').notNull(),
    fileName: text('file_name').notNull(),
    /** `csv` or `xlsx`. */
    fileKind: text('file_kind').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    /** A CSV's detected dialect. */
    dialect: jsonb('dialect'),
    status: text('status').notNull().default('uploaded'),
    /** The job's settings (StartImport), once started. */
    settings: jsonb('settings'),
    /** Headings by column, once started: the mapping remembered for the user's next import of the entity. */
    headings: jsonb('headings'),
    /**
     * What a preview that read every row found of the columns' dates and
     * numbers, and the rows (`FileScan`): the job decides from it instead of
     * reading the file a first time.
     */
    scan: jsonb('scan'),
    rowsTotal: integer('rows_total'),
    rowsChecked: count('rows_checked'),
    rowsDone: count('rows_done'),
    /** The file's row number up to which every row is done (written, skipped or set aside). */
    lastRow: count('last_row'),
    created: count('created'),
    updated: count('updated'),
    unchanged: count('unchanged'),
    skipped: count('skipped'),
    failed: count('failed'),
    duplicatesInFile: count('duplicates_in_file'),
    duplicatesStored: count('duplicates_stored'),
    problems: jsonb('problems').notNull().default(sql`'[]'::jsonb`),
    problemCount: count('problem_count'),
    message: text('message'),
    recovery: text('recovery'),
    undo: jsonb('undo'),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    /** Where the import was asked from, for its audit event. */
    ip: text('ip'),
    /**
     * Written by the process running the job, with every batch and every few
     * seconds: a job whose heartbeat stops (its server was killed) is taken
     * over by a server that starts or is still running.
     */
    heartbeatAt: at('heartbeat_at'),
    createdAt: at('created_at').notNull().defaultNow(),
    startedAt: at('started_at'),
    writingStartedAt: at('writing_started_at'),
    finishedAt: at('finished_at'),
  },
  (t) => [index('imports_user_entity_idx').on(t.userId, t.entity, t.id), index('imports_status_idx').on(t.status)],
);

/**
 * What each job updated, a row per record, with the values it had before and
 * the version the job left it at, so that a failed all-or-nothing job and an
 * undo can take it back when nobody changed it since. Jobs before
 * `import_created` also kept here each record they created (`created`).
 */
export const importRecords = pgTable(
  'import_records',
  {
    importId: bigint('import_id', { mode: 'number' })
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
    recordId: bigint('record_id', { mode: 'number' }).notNull(),
    rowNumber: integer('row_number').notNull(),
    /** `created` or `updated`. */
    action: text('action').notNull(),
    /** An updated record's values before, for the fields the job changed. */
    previous: jsonb('previous'),
    version: integer('version').notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.recordId] })],
);

/** Rows a skip-bad-rows job did not import: the cells as the file holds them and why. */
export const importBadRows = pgTable(
  'import_bad_rows',
  {
    importId: bigint('import_id', { mode: 'number' })
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
    rowNumber: integer('row_number').notNull(),
    cells: jsonb('cells').notNull(),
    error: text('error').notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.rowNumber] })],
);

/**
 * What each job created, a row per batch: the records' ids in the order of
 * the file's rows from `first_row` on, each created at version 1. A row per
 * batch rather than per record: an import of 100,000 records writes 20 rows
 * here instead of 100,000 (0.5 s on PostgreSQL), and an undo reads its
 * newest batch by the primary key instead of sorting the job's records.
 */
export const importCreated = pgTable(
  'import_created',
  {
    importId: bigint('import_id', { mode: 'number' })
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
    firstRow: integer('first_row').notNull(),
    recordIds: bigint('record_ids', { mode: 'number' }).array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.firstRow] })],
);
