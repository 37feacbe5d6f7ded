import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tableOf } from './schema.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

/**
 * Exports as jobs (`/api/v1/exports`, decision 0036): a list written to a
 * file under DATA_DIR/exports/<id> by the server process that claims the job.
 * Progress and the heartbeat are written about once a second while it runs.
 */
export const exportJobs = pgTable(
  'export_jobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).references(() => tableOf('users').id, { onDelete: 'set null' }),
    entity: text('entity').notNull(),
    /** `csv` or `xlsx`. */
    format: text('format').notNull(),
    /** The list parameters as the request spelled them (the query-string form), read again when the job runs. */
    params: jsonb('params').notNull(),
    fileName: text('file_name').notNull(),
    status: text('status').notNull().default('queued'),
    rowsWritten: integer('rows_written').notNull().default(0),
    rowsTotal: integer('rows_total'),
    totalExact: boolean('total_exact'),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    message: text('message'),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    /** Written with the progress while the job runs: a job whose heartbeat stops lost its process. */
    heartbeatAt: at('heartbeat_at'),
    createdAt: at('created_at').notNull().defaultNow(),
    startedAt: at('started_at'),
    finishedAt: at('finished_at'),
    expiresAt: at('expires_at'),
    /** When the sweep removed the file of a job that had expired. */
    fileRemovedAt: at('file_removed_at'),
  },
  (t) => [
    index('export_jobs_user_entity_idx').on(t.userId, t.entity, t.id),
    index('export_jobs_status_idx').on(t.status),
    // One job going per user: two requests at once cannot both start one.
    uniqueIndex('export_jobs_one_going_per_user').on(t.userId).where(sql`status in ('queued', 'running')`),
  ],
);
