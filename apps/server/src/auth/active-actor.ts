import { isPermission, type Permission } from '@data-platform/shared/permissions';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import type { Actor } from './actor.ts';

/**
 * A user as they are now, outside any request: their role's permissions,
 * or undefined when the account is not active. A background job runs with
 * the rights its user still holds, not those they held when it was asked for.
 */
export async function activeActor(database: Database, userId: number | null): Promise<Actor | undefined> {
  if (userId === null) return undefined;
  const [row] = await database.rows<{ permissions: string[] | null }>(
    sql`select r.permissions from users u left join roles r on r.id = u.role_id
      where u.id = ${userId} and u.status = 'active'`,
  );
  if (!row) return undefined;
  const permissions = (row.permissions ?? []).filter(isPermission) as Permission[];
  return { userId, permissions: new Set(permissions), sessionId: null };
}
