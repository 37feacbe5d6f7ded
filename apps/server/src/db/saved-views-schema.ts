import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tableOf } from './schema.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

/**
 * Saved views of the lists (`/companies/views/<slug>`): a user's own, kept on
 * the server so that a view's address opens the same view in any browser;
 * `shared` ones are seen by every user who may read the list's records.
 * `state` is what the web app's layout holds: shown columns, filters, sort and
 * search text (validated against the entity's fields before it is stored).
 */
export const savedViews = pgTable(
  'saved_views',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => tableOf('users').id, { onDelete: 'cascade' }),
    /** The list's root path, `/companies`. */
    rootPath: text('root_path').notNull(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    shared: boolean('shared').notNull().default(false),
    state: jsonb('state').notNull(),
    version: integer('version').notNull().default(1),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('saved_views_owner_root_slug_idx').on(t.ownerId, t.rootPath, t.slug),
    index('saved_views_shared_root_slug_idx').on(t.rootPath, t.slug).where(sql`${t.shared}`),
  ],
);
