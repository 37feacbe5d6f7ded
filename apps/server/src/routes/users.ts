import { approvalSchema, invitationSchema, userChangesSchema } from '@data-platform/shared/auth/user-schemas';
import { recordSchema } from '@data-platform/shared/entities/record-schema';
import { users } from '@data-platform/shared/entities/users';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { approveAccessRequest, rejectAccessRequest } from '../domain/access-requests.ts';
import type { CommandContext } from '../domain/context.ts';
import { conflict } from '../domain/errors.ts';
import { inviteUser, resendInvitation } from '../domain/invitations.ts';
import { changeUser, deleteUser } from '../domain/user-changes.ts';
import { errorBodySchema } from '../http/errors.ts';
import { idParamsSchema, versionFromIfMatch } from '../http/record-params.ts';
import { sendRecord } from '../http/record-replies.ts';
import { requesterOf } from '../http/requester.ts';

const rightsRule = ' Only on a user whose role holds no permission you lack (403 otherwise).';

/** Invitations, access request decisions, and changes to users (all need users:manage): parse, command, reply. */
export function registerUserRoutes(app: FastifyInstance, context: CommandContext): void {
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

  api.post('/api/v1/users/invitations', {
    config: manage,
    schema: {
      tags,
      summary: 'Send invitation',
      description: `Creates an invited user with the role and mails a single-use link to /register, valid ${context.config.invitationTtlMs / 86_400_000} days.`,
      body: invitationSchema,
      response: { ...userResponse, 201: recordSchema(users) },
    },
    handler: async (request, reply) =>
      sendRecord(reply, await inviteUser(context, requesterOf(request), request.body), 201),
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
    handler: async (request, reply) =>
      sendRecord(reply, await resendInvitation(context, requesterOf(request), { userId: request.params.id })),
  });

  api.post('/api/v1/users/:id/approve', {
    config: manage,
    schema: {
      tags,
      summary: 'Approve an access request with a role',
      params: idParamsSchema,
      body: approvalSchema,
      response: userResponse,
    },
    handler: async (request, reply) => {
      const input = { userId: request.params.id, roleId: request.body.roleId };
      return sendRecord(reply, await approveAccessRequest(context, requesterOf(request), input));
    },
  });

  api.post('/api/v1/users/:id/reject', {
    config: manage,
    schema: {
      tags,
      summary: 'Reject an access request',
      params: idParamsSchema,
      // Fastify hands a missing body to the validator as null.
      body: z.strictObject({}).nullish(),
      response: userResponse,
    },
    handler: async (request, reply) =>
      sendRecord(reply, await rejectAccessRequest(context, requesterOf(request), { userId: request.params.id })),
  });

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
      const input = { userId: request.params.id, version, changes: request.body };
      return sendRecord(reply, await changeUser(context, requesterOf(request), input));
    },
  });

  api.delete('/api/v1/users/:id', {
    config: manage,
    schema: {
      tags,
      summary: 'Delete a user',
      description: `Signs the user out everywhere and removes their sign-in; the row stays as "Deleted user" so that the records they created or own still name someone. One's own account cannot be deleted (409 \`self_delete\`).${rightsRule}`,
      params: idParamsSchema,
      response: { 204: z.null(), 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema },
    },
    handler: async (request, reply) => {
      const requester = requesterOf(request);
      // Deleting oneself would sign the deleter out mid-task and could leave no one to undo it.
      if (request.params.id === requester.actor.userId) {
        throw conflict('You cannot delete your own account', undefined, 'self_delete');
      }
      await deleteUser(context, requester, { userId: request.params.id });
      return reply.code(204).send(null);
    },
  });
}
