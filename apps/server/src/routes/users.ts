import {
  approvalSchema,
  invitationSchema,
  switchableUserStatuses,
  userChangesSchema,
} from '@data-platform/shared/auth/user-schemas';
import { recordSchema } from '@data-platform/shared/entities/record-schema';
import { users } from '@data-platform/shared/entities/users';
import { ADMINISTRATOR } from '@data-platform/shared/permissions';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assertWithinRights } from '../access/delegation.ts';
import type { Actor } from '../auth/actor.ts';
import { type AuditEvent, recordAudit } from '../auth/audit.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import { issueUserToken } from '../auth/user-tokens.ts';
import type { Config } from '../config.ts';
import { getRecord, updateRecord } from '../crud/records.ts';
import type { Database, Executor } from '../db/client.ts';
import { conflict, invalid, notFound } from '../domain/errors.ts';
import { errorBodySchema } from '../http/errors.ts';
import { idParamsSchema, versionFromIfMatch } from '../http/record-params.ts';
import { sendRecord } from '../http/record-replies.ts';
import type { Mailer } from '../mail/mailer.ts';

interface UserRow {
  id: number;
  email: string;
  status: string;
  full_name: string;
  role_id: number | null;
  role_name: string | null;
  role_permissions: string[] | null;
}

/**
 * The user, locked against other changes until the transaction ends. `no key
 * update` still lets other transactions reference the user meanwhile (as the
 * actor of their changes), which plain `for update` would make wait.
 */
async function findUser(database: Database, id: number, executor?: Executor): Promise<UserRow> {
  const [user] = await database.rows<UserRow>(
    sql`select u.id, u.email, u.status, u.full_name, u.role_id, r.name as role_name, r.permissions as role_permissions
      from users u left join roles r on r.id = u.role_id where u.id = ${id} for no key update of u`,
    executor,
  );
  if (!user || user.status === 'deleted') throw notFound(`User ${id}`);
  return user;
}

async function roleName(database: Database, roleId: number, executor: Executor): Promise<string> {
  const [role] = await database.rows<{ name: string }>(sql`select name from roles where id = ${roleId}`, executor);
  if (!role) throw invalid({ roleId: 'No such role' }, 'This role does not exist');
  return role.name;
}

/**
 * A role can be given only by someone who holds every permission in it, so
 * that a user manager cannot raise anyone (themselves included) above their own rights.
 */
async function assertCanGrant(database: Database, actor: Actor, roleId: number, executor: Executor): Promise<void> {
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
}

/**
 * A user can be acted on (changed, disabled, deleted, invited again, their
 * request decided) only by someone who holds every permission of their role:
 * otherwise a user manager could lock out, demote or take over an administrator.
 */
function assertCanActOn(actor: Actor, user: UserRow): void {
  assertWithinRights(
    actor,
    user.role_permissions ?? [],
    `You cannot act on ${user.full_name}, whose role (${user.role_name}) holds more than yours`,
  );
}

/**
 * Refuses to demote, disable or delete the last active administrator. Such
 * changes queue on the Administrator role's row, so two of them cannot race
 * past each other. (Locking every administrator's row instead deadlocked two
 * administrators demoting each other, each holding the other's row.)
 */
async function assertNotLastAdministrator(database: Database, userId: number, executor: Executor): Promise<void> {
  await database.rows(sql`select id from roles where name = ${ADMINISTRATOR} and built_in for no key update`, executor);
  const admins = await database.rows<{ id: number }>(
    sql`select u.id from users u join roles r on r.id = u.role_id
      where r.name = ${ADMINISTRATOR} and r.built_in and u.status = 'active'`,
    executor,
  );
  if (admins.length === 1 && Number(admins[0]?.id) === userId) {
    throw conflict(
      'This is the last active administrator; make someone else administrator first',
      undefined,
      'last_administrator',
    );
  }
}

function expiryText(ttlMs: number): string {
  const when = new Date(Date.now() + ttlMs);
  return `${new Intl.DateTimeFormat('en', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(when)} UTC`;
}

const rightsRule = ' Only on a user whose role holds no permission you lack (403 otherwise).';

/** Invitations, access request decisions, and changes to users (all need users:manage). */
export function registerUserRoutes(app: FastifyInstance, database: Database, config: Config, mailer: Mailer): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = [users.labelPlural];
  const manage = { permission: 'users:manage' as const };
  const userResponse = {
    200: recordSchema(users),
    400: errorBodySchema,
    403: errorBodySchema,
    404: errorBodySchema,
    409: errorBodySchema,
  };
  const audit = (event: Omit<AuditEvent, 'ip' | 'actorId'>, ip: string, actorId: number | null, tx: Executor) =>
    recordAudit(database, { ...event, ip, actorId }, tx);

  const sendInvitation = async (
    user: { id: number; email: string },
    roleId: number,
    inviterId: number | null,
    tx: Executor,
  ) => {
    const token = await issueUserToken(database, user.id, 'invitation', config.invitationTtlMs, tx);
    const [inviter] = await database.rows<{ full_name: string }>(
      sql`select full_name from users where id = ${inviterId}`,
      tx,
    );
    await mailer.send(
      {
        to: user.email,
        template: 'invitation',
        values: {
          inviter: inviter?.full_name ?? 'An administrator',
          role: await roleName(database, roleId, tx),
          link: `${config.publicUrl}/register?token=${token}`,
          expires: expiryText(config.invitationTtlMs),
        },
      },
      tx,
    );
  };

  api.post('/api/v1/users/invitations', {
    config: manage,
    schema: {
      tags,
      summary: 'Send invitation',
      description: `Creates an invited user with the role and mails a single-use link to /register, valid ${config.invitationTtlMs / 86_400_000} days.`,
      body: invitationSchema,
      response: { ...userResponse, 201: recordSchema(users) },
    },
    handler: async (request, reply) => {
      const { email, roleId } = request.body;
      const row = await database.db.transaction(async (tx) => {
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
        await assertCanGrant(database, request.actor, roleId, tx);
        const [created] = (await database.rows<{ id: number }>(
          sql`insert into users (email, status, role_id, created_by_id, updated_by_id)
            values (${email}, 'invited', ${roleId}, ${request.actor.userId}, ${request.actor.userId}) returning id`,
          tx,
        )) as [{ id: number }];
        const user = { id: Number(created.id), email };
        await sendInvitation(user, roleId, request.actor.userId, tx);
        await audit(
          { type: 'invitationSent', targetUserId: user.id, targetEmail: email },
          request.ip,
          request.actor.userId,
          tx,
        );
        return getRecord(database, users, user.id, { join: [] }, undefined, tx);
      });
      return sendRecord(reply, row, 201);
    },
  });

  api.post('/api/v1/users/:id/resend-invitation', {
    config: manage,
    schema: {
      tags,
      summary: 'Resend Invite',
      description: `Mails a new link; the previous one stops working.${rightsRule}`,
      params: idParamsSchema,
      response: userResponse,
    },
    handler: async (request, reply) => {
      const row = await database.db.transaction(async (tx) => {
        const user = await findUser(database, request.params.id, tx);
        assertCanActOn(request.actor, user);
        if (user.status !== 'invited') {
          throw conflict(
            'Only users who have not accepted their invitation can be invited again',
            undefined,
            'not_invited',
          );
        }
        await sendInvitation(
          { id: Number(user.id), email: user.email },
          Number(user.role_id),
          request.actor.userId,
          tx,
        );
        await audit(
          { type: 'invitationSent', targetUserId: Number(user.id), targetEmail: user.email, details: 'resent' },
          request.ip,
          request.actor.userId,
          tx,
        );
        return getRecord(database, users, Number(user.id), { join: [] }, undefined, tx);
      });
      return sendRecord(reply, row);
    },
  });

  const decide = (decision: 'approve' | 'reject') =>
    api.post(`/api/v1/users/:id/${decision}`, {
      config: manage,
      schema: {
        tags,
        summary: decision === 'approve' ? 'Approve an access request with a role' : 'Reject an access request',
        params: idParamsSchema,
        // Fastify hands a missing body to the validator as null.
        body: decision === 'approve' ? approvalSchema : z.strictObject({}).nullish(),
        response: userResponse,
      },
      handler: async (request, reply) => {
        const row = await database.db.transaction(async (tx) => {
          const user = await findUser(database, request.params.id, tx);
          assertCanActOn(request.actor, user);
          if (user.status !== 'pending')
            throw conflict('This user has no pending access request', undefined, 'not_pending');
          const roleId = decision === 'approve' ? (request.body as { roleId: number }).roleId : null;
          if (roleId !== null) await assertCanGrant(database, request.actor, roleId, tx);
          await database.rows(
            sql`update users set status = ${decision === 'approve' ? 'active' : 'rejected'},
                role_id = coalesce(${roleId}::bigint, role_id), version = version + 1, updated_at = now(),
                updated_by_id = ${request.actor.userId}
              where id = ${user.id}`,
            tx,
          );
          await mailer.send(
            {
              to: user.email,
              template: decision === 'approve' ? 'accessApproved' : 'accessRejected',
              values: { name: user.full_name, link: `${config.publicUrl}/` },
            },
            tx,
          );
          await audit(
            {
              type: decision === 'approve' ? 'accessApproved' : 'accessRejected',
              targetUserId: Number(user.id),
              targetEmail: user.email,
            },
            request.ip,
            request.actor.userId,
            tx,
          );
          return getRecord(database, users, Number(user.id), { join: [] }, undefined, tx);
        });
        return sendRecord(reply, row);
      },
    });
  decide('approve');
  decide('reject');

  api.patch('/api/v1/users/:id', {
    config: manage,
    schema: {
      tags,
      summary: 'Edit a user: name, role, status',
      description: `Send \`If-Match: <version>\`. Disabling revokes every session of the user.${rightsRule} A new role may hold only permissions you hold.`,
      params: idParamsSchema,
      headers: z.looseObject({ 'if-match': z.string().optional() }),
      body: userChangesSchema,
      response: { ...userResponse, 412: errorBodySchema, 428: errorBodySchema },
    },
    handler: async (request, reply) => {
      const version = versionFromIfMatch(request.headers['if-match'], true) as number;
      const changes = request.body;
      const row = await database.db.transaction(async (tx) => {
        const user = await findUser(database, request.params.id, tx);
        assertCanActOn(request.actor, user);
        if (changes.status && !(switchableUserStatuses as readonly string[]).includes(user.status)) {
          throw conflict(
            `A user who is ${user.status} cannot be made ${changes.status} here`,
            undefined,
            'wrong_status',
          );
        }
        const roleChanges = changes.roleId !== undefined && changes.roleId !== Number(user.role_id);
        const leavesAdministrators = user.role_name === ADMINISTRATOR && (roleChanges || changes.status === 'disabled');
        if (leavesAdministrators) await assertNotLastAdministrator(database, Number(user.id), tx);
        if (roleChanges) await assertCanGrant(database, request.actor, changes.roleId as number, tx);
        const updated = await updateRecord(database, users, Number(user.id), version, changes, request.actor, tx);
        const target = { targetUserId: Number(user.id), targetEmail: user.email };
        if (roleChanges) {
          await audit(
            { ...target, type: 'roleChanged', details: `${user.role_name ?? 'none'} → role ${changes.roleId}` },
            request.ip,
            request.actor.userId,
            tx,
          );
        }
        if (changes.status && changes.status !== user.status) {
          if (changes.status === 'disabled') await revokeUserSessions(database, Number(user.id), tx);
          await audit(
            { ...target, type: changes.status === 'disabled' ? 'userDisabled' : 'userEnabled' },
            request.ip,
            request.actor.userId,
            tx,
          );
        }
        if (changes.firstName !== undefined || changes.lastName !== undefined) {
          await audit({ ...target, type: 'userUpdated' }, request.ip, request.actor.userId, tx);
        }
        return updated;
      });
      return sendRecord(reply, row);
    },
  });

  api.delete('/api/v1/users/:id', {
    config: manage,
    schema: {
      tags,
      summary: 'Delete a user',
      description: `Signs the user out everywhere and removes their sign-in; the row stays as "Deleted user" so that the records they created or own still name someone.${rightsRule}`,
      params: idParamsSchema,
      response: { 204: z.null(), 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema },
    },
    handler: async (request, reply) => {
      await database.db.transaction(async (tx) => {
        const user = await findUser(database, request.params.id, tx);
        assertCanActOn(request.actor, user);
        if (user.role_name === ADMINISTRATOR) await assertNotLastAdministrator(database, Number(user.id), tx);
        await database.rows(
          sql`update users set status = 'deleted', first_name = 'Deleted', last_name = 'user',
              email = ${`deleted-${user.id}@deleted.invalid`}, role_id = null,
              version = version + 1, updated_at = now(), updated_by_id = ${request.actor.userId}
            where id = ${user.id}`,
          tx,
        );
        await database.rows(sql`delete from user_credentials where user_id = ${user.id}`, tx);
        await database.rows(sql`delete from user_tokens where user_id = ${user.id}`, tx);
        await revokeUserSessions(database, Number(user.id), tx);
        await audit(
          { type: 'userDeleted', targetUserId: Number(user.id), targetEmail: user.email },
          request.ip,
          request.actor.userId,
          tx,
        );
      });
      return reply.code(204).send(null);
    },
  });
}
