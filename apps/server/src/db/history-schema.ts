import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { tableOf } from './schema.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });
// Resolved lazily: schema.ts re-exports this module.
const userId = () => tableOf('users').id;

/**
 * What happened to each record, written by the same statement (or
 * transaction) as the change itself (crud/records.ts), so that a change
 * rolled back or refused (412) leaves no entry. `entity`/`record_id` name
 * the record whose timeline the entry belongs to; `subject_entity` and
 * `subject_id` the row that was written when it is not the record itself (a
 * note, a file, a link row). `changes` holds each field's old and new value
 * as the API answers it (`{"name": ["Old", "New"]}`), custom fields included.
 * A deleted record's `snapshot` holds its rows and what went with them
 * (links, notes, files, rows that cascade), for a restore within the
 * retention period; it is emptied past it (docs/decisions/0028).
 * `changes_elided` marks a created entry that does not repeat the new
 * record's values (records created by an import): they are told when read,
 * from the record as it is and its later entries' old values (docs/decisions/0040).
 */
export const recordHistory = pgTable(
  'record_history',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    entity: text('entity').notNull(),
    recordId: bigint('record_id', { mode: 'number' }).notNull(),
    action: text('action').notNull(),
    subjectEntity: text('subject_entity'),
    subjectId: bigint('subject_id', { mode: 'number' }),
    actorId: bigint('actor_id', { mode: 'number' }).references(userId, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
    changes: jsonb('changes').notNull().default({}),
    changesElided: boolean('changes_elided').notNull().default(false),
    snapshot: jsonb('snapshot'),
  },
  (t) => [
    // A record's timeline, newest first, paged by (created_at, id).
    index('record_history_record_idx').on(t.entity, t.recordId, t.createdAt, t.id),
    // What pruning finds: snapshots older than the retention period.
    index('record_history_snapshot_idx').on(t.createdAt).where(sql`${t.snapshot} is not null`),
  ],
);

/** The administrator's settings of record history: one row, absent until first set (defaults apply). */
export const historySettings = pgTable(
  'history_settings',
  {
    id: smallint('id').primaryKey().default(1),
    retentionDays: integer('retention_days').notNull().default(30),
    updatedAt: at('updated_at').notNull().defaultNow(),
    updatedById: bigint('updated_by_id', { mode: 'number' }).references(userId, { onDelete: 'set null' }),
  },
  (t) => [
    check('history_settings_one_row', sql`${t.id} = 1`),
    check('history_settings_retention_days', sql`${t.retentionDays} between 1 and 3650`),
  ],
);
