import type { UserChanges } from '@data-platform/shared/auth/user-schemas';
import { switchableUserStatuses } from '@data-platform/shared/auth/user-schemas';
import { users } from '@data-platform/shared/entities/users';
import { ADMINISTRATOR } from '@data-platform/shared/permissions';
import { sql } from 'drizzle-orm';
import { type AuditEvent, recordAudit } from '../auth/audit.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import { updateRecord } from '../crud/records.ts';
import type { CommandContext, Requester } from './context.ts';
import { conflict } from './errors.ts';
import { assertCanGrant } from './role-grants.ts';
import { assertCanActOn, assertNotLastAdministrator, lockedUser } from './users.ts';

/**
 * Changes a user's name, role or status (active / disabled) at the version
 * the changer read. A new role may hold only what the changer holds; the last
 * active administrator keeps the role and stays enabled; disabling ends every
 * session of the user. Answers the user's record.
 */
export async function changeUser(
  { database }: CommandContext,
  { actor, ip }: Requester,
  { userId, version, changes }: { userId: number; version: number; changes: UserChanges },
): Promise<string> {
  return database.db.transaction(async (tx) => {
    const user = await lockedUser(database, userId, tx);
    assertCanActOn(actor, user);
    if (changes.status && !(switchableUserStatuses as readonly string[]).includes(user.status)) {
      throw conflict(`A user who is ${user.status} cannot be made ${changes.status} here`, undefined, 'wrong_status');
    }
    const roleChanges = changes.roleId !== undefined && changes.roleId !== user.role_id;
    const leavesAdministrators = user.role_name === ADMINISTRATOR && (roleChanges || changes.status === 'disabled');
    if (leavesAdministrators) await assertNotLastAdministrator(database, user.id, tx);
    if (roleChanges) await assertCanGrant(database, actor, changes.roleId as number, tx);
    const updated = await updateRecord(database, users, user.id, version, changes, actor, tx);
    const audit = (event: Pick<AuditEvent, 'type' | 'details'>) =>
      recordAudit(
        database,
        { ...event, actorId: actor.userId, ip, targetUserId: user.id, targetEmail: user.email },
        tx,
      );
    if (roleChanges)
      await audit({ type: 'roleChanged', details: `${user.role_name ?? 'none'} → role ${changes.roleId}` });
    if (changes.status && changes.status !== user.status) {
      if (changes.status === 'disabled') await revokeUserSessions(database, user.id, tx);
      await audit({ type: changes.status === 'disabled' ? 'userDisabled' : 'userEnabled' });
    }
    if (changes.firstName !== undefined || changes.lastName !== undefined) await audit({ type: 'userUpdated' });
    return updated;
  });
}

/**
 * Deletes a user: signs them out everywhere and removes their sign-in; the
 * row stays as "Deleted user" so that the records they created or own still
 * name someone. The last active administrator cannot be deleted.
 */
export async function deleteUser(
  { database }: CommandContext,
  { actor, ip }: Requester,
  { userId }: { userId: number },
): Promise<void> {
  await database.db.transaction(async (tx) => {
    const user = await lockedUser(database, userId, tx);
    assertCanActOn(actor, user);
    if (user.role_name === ADMINISTRATOR) await assertNotLastAdministrator(database, user.id, tx);
    await database.rows(
      sql`update users set status = 'deleted', first_name = 'Deleted', last_name = 'user',
          email = ${`deleted-${user.id}@deleted.invalid`}, role_id = null,
          version = version + 1, updated_at = now(), updated_by_id = ${actor.userId}
        where id = ${user.id}`,
      tx,
    );
    await database.rows(sql`delete from user_credentials where user_id = ${user.id}`, tx);
    await database.rows(sql`delete from user_tokens where user_id = ${user.id}`, tx);
    await revokeUserSessions(database, user.id, tx);
    await recordAudit(
      database,
      { type: 'userDeleted', actorId: actor.userId, ip, targetUserId: user.id, targetEmail: user.email },
      tx,
    );
  });
}
