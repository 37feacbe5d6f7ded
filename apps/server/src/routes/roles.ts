import { createSchema, recordSchema, updateSchema } from '@data-platform/shared/entities/record-schema';
import { roles } from '@data-platform/shared/entities/roles';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CommandContext } from '../domain/context.ts';
import { createRole, deleteRole, editRole } from '../domain/roles.ts';
import { errorBodySchema } from '../http/errors.ts';
import { idParamsSchema, versionFromIfMatch } from '../http/record-params.ts';
import { sendRecord } from '../http/record-replies.ts';
import { requesterOf } from '../http/requester.ts';

/** Role values as the schemas parsed them. */
type RoleValues = Record<string, unknown> & { permissions?: string[] };

/** Create, edit and delete roles ("Manage roles"); listing is generic. Built-in roles stay as they are. */
export function registerRoleRoutes(app: FastifyInstance, context: CommandContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = [roles.labelPlural];
  const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

  api.post('/api/v1/roles', {
    config: { access: { resource: 'roles', action: 'create' } },
    schema: {
      tags,
      summary: 'Create a role',
      description: 'The role may hold only permissions you hold (403 otherwise); `users:manage` needs `users:read`.',
      body: createSchema(roles),
      response: { 201: recordSchema(roles), ...errors },
    },
    handler: async (request, reply) =>
      sendRecord(reply, await createRole(context, requesterOf(request), request.body as RoleValues), 201),
  });

  api.patch('/api/v1/roles/:id', {
    config: { access: { resource: 'roles', action: 'update' } },
    schema: {
      tags,
      summary: 'Edit a role',
      description:
        'Send `If-Match: <version>`. Changes apply to every user with the role at their next request. Neither a role holding a permission you lack nor one you would give such a permission can be changed (403).',
      params: idParamsSchema,
      headers: z.looseObject({ 'if-match': z.string().optional() }),
      body: updateSchema(roles),
      response: { 200: recordSchema(roles), ...errors, 412: errorBodySchema, 428: errorBodySchema },
    },
    handler: async (request, reply) => {
      const version = versionFromIfMatch(request.headers['if-match'], true) as number;
      const input = { roleId: request.params.id, version, values: request.body as RoleValues };
      return sendRecord(reply, await editRole(context, requesterOf(request), input));
    },
  });

  api.delete('/api/v1/roles/:id', {
    config: { access: { resource: 'roles', action: 'delete' } },
    schema: { tags, summary: 'Delete a role', params: idParamsSchema, response: { 204: z.null(), ...errors } },
    handler: async (request, reply) => {
      await deleteRole(context, requesterOf(request), { roleId: request.params.id });
      return reply.code(204).send(null);
    },
  });
}
