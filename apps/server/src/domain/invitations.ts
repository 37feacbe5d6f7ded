import { sql } from 'drizzle-orm';
import { recordAudit } from '../auth/audit.ts';
import { createSession } from '../auth/sessions.ts';
import { consumeUserToken, issueUserToken } from '../auth/user-tokens.ts';
import type { Executor } from '../db/client.ts';
import { assertAcceptablePassword, currentUser, setPassword } from './accounts.ts';
import type { CommandContext, Requester } from './context.ts';
import { conflict, invalid } from './errors.ts';
import { assertCanGrant } from './role-grants.ts';
import { assertCanActOn, lockedUser, userRecord } from './users.ts';

function expiryText(ttlMs: number): string {
  const when = new Date(Date.now() + ttlMs);
  return `${new Intl.DateTimeFormat('en', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(when)} UTC`;
}

/** Mails the user a new single-use link to /register; any earlier link stops working. */
async function mailInvitation(
  { database, mailer, config }: CommandContext,
  user: { id: number; email: string; roleName: string },
  { actor, language }: Requester,
  tx: Executor,
): Promise<void> {
  const token = await issueUserToken(database, user.id, 'invitation', config.invitationTtlMs, tx);
  const [inviter] = await database.rows<{ full_name: string }>(
    sql`select full_name from users where id = ${actor.userId}`,
    tx,
  );
  await mailer.send(
    {
      to: user.email,
      template: 'invitation',
      language,
      values: {
        inviter: inviter?.full_name ?? 'An administrator',
        role: user.roleName,
        link: `${config.publicUrl}/register?token=${token}`,
        expires: expiryText(config.invitationTtlMs),
      },
    },
    tx,
  );
}

/**
 * Creates an invited user with the role and mails them a link: refused when
 * the email is taken, or when the role holds more than the inviter does.
 * Answers the new user's record.
 */
export async function inviteUser(
  context: CommandContext,
  requester: Requester,
  { email, roleId }: { email: string; roleId: number },
): Promise<string> {
  const { database } = context;
  const { actor, ip } = requester;
  return database.db.transaction(async (tx) => {
    const [existing] = await database.rows<{ status: string }>(
      sql`select status from users where email = ${email}`,
      tx,
    );
    if (existing) {
      const message =
        existing.status === 'invited'
          ? 'This email is already invited; resend the invitation instead'
          : 'This email already has an account';
      throw conflict(message, { email: 'Already used' });
    }
    const roleName = await assertCanGrant(database, actor, roleId, tx);
    const [created] = (await database.rows<{ id: number }>(
      sql`insert into users (email, status, role_id, created_by_id, updated_by_id)
        values (${email}, 'invited', ${roleId}, ${actor.userId}, ${actor.userId}) returning id`,
      tx,
    )) as [{ id: number }];
    const id = Number(created.id);
    await mailInvitation(context, { id, email, roleName }, requester, tx);
    await recordAudit(
      database,
      { type: 'invitationSent', actorId: actor.userId, ip, targetUserId: id, targetEmail: email },
      tx,
    );
    return userRecord(database, id, tx);
  });
}

/** Mails an invited user a new link (the previous one stops working). Answers their record. */
export async function resendInvitation(
  context: CommandContext,
  requester: Requester,
  { userId }: { userId: number },
): Promise<string> {
  const { database } = context;
  const { actor, ip } = requester;
  return database.db.transaction(async (tx) => {
    const user = await lockedUser(database, userId, tx);
    assertCanActOn(actor, user);
    if (user.status !== 'invited') {
      throw conflict(
        'Only users who have not accepted their invitation can be invited again',
        undefined,
        'not_invited',
      );
    }
    await mailInvitation(context, { id: user.id, email: user.email, roleName: user.role_name ?? '' }, requester, tx);
    await recordAudit(
      database,
      {
        type: 'invitationSent',
        actorId: actor.userId,
        ip,
        targetUserId: user.id,
        targetEmail: user.email,
        details: 'resent',
      },
      tx,
    );
    return userRecord(database, user.id, tx);
  });
}

/**
 * Spends the mailed token, names the user, sets their password, makes them
 * active and signs them in. Answers the session's token and the user.
 */
export async function acceptInvitation(
  { database, config }: CommandContext,
  { ip, userAgent }: Requester,
  input: { token: string; firstName: string; lastName: string; password: string },
): Promise<{ accessToken: string; user: Record<string, unknown> }> {
  return database.db.transaction(async (tx) => {
    const { userId, email } = await consumeUserToken(database, input.token, 'invitation', tx);
    assertAcceptablePassword(input.password, email);
    const [activated] = await database.rows(
      sql`update users set first_name = ${input.firstName}, last_name = ${input.lastName}, status = 'active',
          version = version + 1, updated_at = now(), updated_by_id = ${userId}
        where id = ${userId} and status = 'invited' returning id`,
      tx,
    );
    if (!activated) throw invalid({ token: 'This invitation is no longer valid' });
    await setPassword(database, userId, input.password, tx);
    const accessToken = await createSession(database, config, userId, { ip, userAgent }, tx);
    await recordAudit(database, { type: 'invitationAccepted', actorId: userId, ip, targetUserId: userId }, tx);
    return { accessToken, user: await currentUser(database, userId, tx) };
  });
}
