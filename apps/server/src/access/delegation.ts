import { isPermission, type Permission } from '@data-platform/shared/permissions';
import { type SQL, sql } from 'drizzle-orm';
import type { Actor } from '../auth/actor.ts';
import { pgArrayLiteral } from '../crud/sql-fragments.ts';
import { refused } from '../domain/errors.ts';

/**
 * The one rule of delegation: nobody passes on or reaches past what they hold.
 * It decides who may give a role, put permissions into a role (creating or
 * editing it), edit or delete a role, act on a user (change, disable, delete,
 * re-invite), and read the mail that carries a user's sign-in links. Each of
 * these compares a set of permissions with the actor's own: if the set holds
 * anything the actor does not, the actor could use it to rise above their
 * rights (give it to themselves, or become the user who holds it).
 */
export function permissionsBeyond(actor: Actor, permissions: readonly string[]): Permission[] {
  // Names no version knows any more (a stored role from before a permission was removed) give nothing.
  return permissions.filter(isPermission).filter((p) => !actor.permissions.has(p));
}

/**
 * Throws 403 `forbidden` unless the actor holds every permission in
 * `permissions`; `refusal` says what was refused, and `field` names the field at fault.
 */
export function assertWithinRights(
  actor: Actor,
  permissions: readonly string[],
  refusal: string,
  field?: string,
): void {
  const beyond = permissionsBeyond(actor, permissions);
  if (beyond.length === 0) return;
  throw refused(
    `${refusal}: it holds ${beyond.join(', ')}, which your role does not`,
    field ? { [field]: 'Beyond your rights' } : undefined,
  );
}

/**
 * SQL true when the user whose email is `email` exists and their role holds
 * nothing the actor does not (a user without a role holds nothing): the same
 * rule, for rows read in bulk.
 */
export function userWithinRightsSql(actor: Actor, email: SQL): SQL {
  return sql`exists (select 1 from users u left join roles r on r.id = u.role_id
    where u.email = ${email} and coalesce(r.permissions, '{}') <@ ${pgArrayLiteral([...actor.permissions])}::text[])`;
}
