import { sql } from 'drizzle-orm';
import { recordAudit } from '../auth/audit.ts';
import { hashPassword } from '../auth/passwords.ts';
import { assertAcceptablePassword, setPassword } from './accounts.ts';
import type { CommandContext, Requester } from './context.ts';
import { conflict } from './errors.ts';
import { assertCanGrant } from './role-grants.ts';
import { assertCanActOn, lockedUser, userRecord } from './users.ts';

/**
 * Someone asks for an account: a pending user with their password, which an
 * administrator approves or rejects. Nothing tells the asker whether the
 * email was already known.
 */
export async function requestAccess(
  { database }: CommandContext,
  { ip }: Requester,
  { email, firstName, lastName, password }: { email: string; firstName: string; lastName: string; password: string },
): Promise<void> {
  assertAcceptablePassword(password, email);
  await database.db.transaction(async (tx) => {
    const [created] = await database.rows<{ id: number }>(
      sql`insert into users (email, first_name, last_name, status) values (${email}, ${firstName}, ${lastName}, 'pending')
        on conflict (email) do nothing returning id`,
      tx,
    );
    if (!created) {
      // Spend the hashing a new request spends, so the time taken does not tell that the email is in use.
      await hashPassword(password);
      return;
    }
    await setPassword(database, Number(created.id), password, tx);
    await recordAudit(
      database,
      { type: 'accessRequested', actorId: null, ip, targetUserId: Number(created.id), targetEmail: email },
      tx,
    );
  });
}

/**
 * An administrator decides a pending request: approved with a role (which
 * they must hold all of: see assertCanGrant) the user becomes active,
 * rejected they cannot sign in. The user is mailed either way. Answers their record.
 */
async function decideAccessRequest(
  { database, mailer, config }: CommandContext,
  { actor, ip, language }: Requester,
  userId: number,
  roleId: number | null,
): Promise<string> {
  const approved = roleId !== null;
  return database.db.transaction(async (tx) => {
    const user = await lockedUser(database, userId, tx);
    assertCanActOn(actor, user);
    if (user.status !== 'pending') throw conflict('This user has no pending access request', undefined, 'not_pending');
    if (roleId !== null) await assertCanGrant(database, actor, roleId, tx);
    await database.rows(
      sql`update users set status = ${approved ? 'active' : 'rejected'},
          role_id = coalesce(${roleId}::bigint, role_id), version = version + 1, updated_at = now(),
          updated_by_id = ${actor.userId}
        where id = ${user.id}`,
      tx,
    );
    await mailer.send(
      {
        to: user.email,
        template: approved ? 'accessApproved' : 'accessRejected',
        language,
        values: { name: user.full_name, link: `${config.publicUrl}/` },
      },
      tx,
    );
    await recordAudit(
      database,
      {
        type: approved ? 'accessApproved' : 'accessRejected',
        actorId: actor.userId,
        ip,
        targetUserId: user.id,
        targetEmail: user.email,
      },
      tx,
    );
    return userRecord(database, user.id, tx);
  });
}

/** Approves a pending access request with a role; answers the user's record. */
export function approveAccessRequest(
  context: CommandContext,
  requester: Requester,
  { userId, roleId }: { userId: number; roleId: number },
): Promise<string> {
  return decideAccessRequest(context, requester, userId, roleId);
}

/** Rejects a pending access request; answers the user's record. */
export function rejectAccessRequest(
  context: CommandContext,
  requester: Requester,
  { userId }: { userId: number },
): Promise<string> {
  return decideAccessRequest(context, requester, userId, null);
}
