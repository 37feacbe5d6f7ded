import { bigint, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tableOf } from './schema.ts';

// Resolved lazily: schema.ts re-exports this module.
const userId = () => tableOf('users').id;
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

/** Password hashes live apart from the users table, so no generic route can ever select them. */
export const userCredentials = pgTable('user_credentials', {
  userId: bigint('user_id', { mode: 'number' }).primaryKey().references(userId, { onDelete: 'cascade' }),
  passwordHash: text('password_hash').notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/** Sign-in sessions: the bearer token is stored only as its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(userId, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: at('created_at').notNull().defaultNow(),
    lastUsedAt: at('last_used_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

/** Single-use tokens mailed for invitations and password resets, stored as their SHA-256. */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(userId, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['invitation', 'passwordReset'] }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [index('user_tokens_user_id_idx').on(t.userId)],
);

/**
 * Throttling counts (auth/throttle.ts), kept in the database so that every
 * server process over it enforces one limit: per limiter and key, the times
 * of the latest events within the window, at most the limiter's limit of them.
 */
export const throttleCounters = pgTable(
  'throttle_counters',
  {
    limiter: text('limiter').notNull(),
    key: text('key').notNull(),
    /** Oldest first; only the last `limit` matter for the next answer, so no more are kept. */
    events: at('events').array().notNull(),
    /** When the newest event leaves the window: from then on the row counts nothing and can be pruned. */
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.limiter, t.key] }), index('throttle_counters_expires_at_idx').on(t.expiresAt)],
);
