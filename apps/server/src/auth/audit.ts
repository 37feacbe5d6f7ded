import type { AuditEventType } from '@data-platform/shared/entities/audit-events';
import { sql } from 'drizzle-orm';
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
