import type { AuditEventType } from '@data-platform/shared/entities/audit-events';
import { type SQL, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.ts';

export interface AuditEvent {
  type: AuditEventType;
  actorId: number | null;
  ip: string;
  targetUserId?: number | null;
  targetEmail?: string | null;
  details?: string;
}

/** Stores a security event (who, when, from where, on whom). */
export async function recordAudit(database: Database, event: AuditEvent, executor?: Executor): Promise<void> {
  await database.rows(
    sql`insert into audit_events (type, actor_id, target_user_id, target_email, ip, details)
      values (${event.type}, ${event.actorId}, ${event.targetUserId ?? null}, ${event.targetEmail ?? null},
        ${event.ip}, ${event.details?.slice(0, 1000) ?? null})`,
    executor,
  );
}

export type RecordChangeType = Extract<AuditEventType, 'recordCreated' | 'recordUpdated' | 'recordDeleted'>;

export interface RecordChange {
  type: RecordChangeType;
  actorId: number | null;
  ip: string;
  /** The entity's name. */
  entity: string;
  id: number;
  /** The fields an update sent. */
  fields?: readonly string[];
}

/**
 * Stores a create, update or delete of one record: which record and which
 * fields, never their values, which the events' readers may not hold the
 * right to read. Pass the change's transaction, so that a change rolled back
 * leaves no event.
 */
export function recordChange(database: Database, change: RecordChange, executor?: Executor): Promise<void> {
  const { type, actorId, ip, entity, id, fields } = change;
  const details = fields?.length ? `${entity} ${id}: ${fields.join(', ')}` : `${entity} ${id}`;
  return recordAudit(database, { type, actorId, ip, details }, executor);
}

/**
 * The insert of a record change's event inside the write's own statement
 * (a data-modifying CTE): one event per row of `source`, whose `id` column
 * names the record. The event then exists exactly when the write does, and
 * the details read as `recordChange` writes them.
 */
export function recordChangeInsertSql(change: Omit<RecordChange, 'id'>, source: SQL): SQL {
  const { type, actorId, ip, entity, fields } = change;
  const after = fields?.length ? `: ${fields.join(', ')}` : '';
  return sql`insert into audit_events (type, actor_id, ip, details)
    select ${type}::text, ${actorId}::bigint, ${ip}::text,
      left(concat(${entity}::text, ' ', s.id, ${after}::text), 1000)
    from ${source} s`;
}
