import { sql } from 'drizzle-orm';
import { bigint, check, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tableOf } from './schema.ts';

/**
 * Pairs of records someone said are not duplicates ("Not duplicates" on the
 * duplicates screen): no longer listed, for everyone (decision 0032). A pair
 * is stored once, the lower id first; a merge removes the pairs of the record
 * it deletes.
 */
export const duplicateDismissals = pgTable(
  'duplicate_dismissals',
  {
    entity: text('entity').notNull(),
    lowId: bigint('low_id', { mode: 'number' }).notNull(),
    highId: bigint('high_id', { mode: 'number' }).notNull(),
    dismissedById: bigint('dismissed_by_id', { mode: 'number' }).references(() => tableOf('users').id, {
      onDelete: 'set null',
    }),
    dismissedAt: timestamp('dismissed_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.entity, t.lowId, t.highId] }),
    check('duplicate_dismissals_order', sql`${t.lowId} < ${t.highId}`),
  ],
);
