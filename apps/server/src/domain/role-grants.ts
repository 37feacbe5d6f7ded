import { sql } from 'drizzle-orm';
import { assertWithinRights } from '../access/delegation.ts';
import type { Actor } from '../auth/actor.ts';
import type { Database, Executor } from '../db/client.ts';
import { invalid } from './errors.ts';

/**
 * Nobody grants more than they hold: a role can be given (by invitation, on
 * approval, by a change of role) only by someone who holds every permission
 * in it, so that a user manager cannot raise anyone, themselves included,
 * above their own rights. Answers the role's name.
 */
export async function assertCanGrant(
  database: Database,
  actor: Actor,
  roleId: number,
  executor: Executor,
): Promise<string> {
  const [role] = await database.rows<{ name: string; permissions: string[] }>(
    sql`select name, permissions from roles where id = ${roleId}`,
    executor,
  );
  if (!role) throw invalid({ roleId: 'No such role' }, 'This role does not exist');
  assertWithinRights(
    actor,
    role.permissions,
    `Only someone who holds every permission of ${role.name} can give it`,
    'roleId',
  );
  return role.name;
}

/**
 * The same rule for the permissions put into a role (creating or editing
 * it): only those the actor holds, so nobody widens a role, their own
 * included, beyond their rights; and `users:read` with `users:manage`
 * (managing users means seeing their accounts).
 */
export function assertGrantable(actor: Actor, permissions: readonly string[] | undefined): void {
  if (!permissions) return;
  assertWithinRights(actor, permissions, 'You cannot put these permissions in a role', 'permissions');
  if (permissions.includes('users:manage') && !permissions.includes('users:read')) {
    throw invalid({ permissions: 'users:manage needs users:read: managing users means seeing their accounts' });
  }
}
