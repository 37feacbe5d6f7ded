import { createSchema, recordSchema, updateSchema } from '@data-platform/shared/entities/record-schema';
import { roles } from '@data-platform/shared/entities/roles';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assertWithinRights } from '../access/delegation.ts';
import type { Actor } from '../auth/actor.ts';
import { recordAudit } from '../auth/audit.ts';
import { createRecord, deleteRecord, updateRecord } from '../crud/records.ts';
import type { Database, Executor } from '../db/client.ts';
import { conflict, invalid, notFound } from '../domain/errors.ts';
import { errorBodySchema } from '../http/errors.ts';
import { idParamsSchema, versionFromIfMatch } from '../http/record-params.ts';
import { sendRecord } from '../http/record-replies.ts';

interface StoredRole {
  name: string;
  permissions: string[];
}

/**
 * The role, locked for the change: refused when built in, or when it holds
 * anything the actor does not (nobody edits or deletes a role wider than
 * their own, which would let them shape rights they were never given).
 */
async function editableRole(database: Database, actor: Actor, id: number, executor: Executor): Promise<StoredRole> {
  const [role] = await database.rows<StoredRole & { built_in: boolean | null }>(
    sql`select name, permissions, built_in from roles where id = ${id} for update`,
    executor,
  );
  if (!role) throw notFound(`Role ${id}`);
  if (role.built_in)
    throw conflict(`${role.name} is built in and cannot be changed or deleted`, undefined, 'built_in_role');
  assertWithinRights(actor, role.permissions, `You cannot change or delete ${role.name}`);
  return role;
}

/**
 * The permissions a role is given: only those the actor holds (so nobody
 * widens a role, their own included, beyond their rights), and `users:read`
 * with `users:manage` (managing users means seeing their accounts).
 */
function assertGrantable(actor: Actor, permissions: readonly string[] | undefined): void {
  if (!permissions) return;
  assertWithinRights(actor, permissions, 'You cannot put these permissions in a role', 'permissions');
  if (permissions.includes('users:manage') && !permissions.includes('users:read')) {
    throw invalid({ permissions: 'users:manage needs users:read: managing users means seeing their accounts' });
  }
}

/** Create, edit and delete roles ("Manage roles"); listing is generic. Built-in roles stay as they are. */
export function registerRoleRoutes(app: FastifyInstance, database: Database, dataDir: string): void {
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
    handler: async (request, reply) => {
      assertGrantable(request.actor, (request.body as { permissions?: string[] }).permissions);
      const row = await database.db.transaction(async (tx) => {
        const created = await createRecord(
          database,
          roles,
          request.body as Record<string, unknown>,
          request.actor,
          { builtIn: false },
          tx,
        );
        const { name } = JSON.parse(created) as { name: string };
        await recordAudit(
          database,
          { type: 'roleCreated', actorId: request.actor.userId, ip: request.ip, details: name },
          tx,
        );
        return created;
      });
      return sendRecord(reply, row, 201);
    },
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
      const row = await database.db.transaction(async (tx) => {
        const role = await editableRole(database, request.actor, request.params.id, tx);
        assertGrantable(request.actor, (request.body as { permissions?: string[] }).permissions);
        const updated = await updateRecord(
          database,
          roles,
          request.params.id,
          version,
          request.body as Record<string, unknown>,
          request.actor,
          tx,
        );
        await recordAudit(
          database,
          { type: 'roleUpdated', actorId: request.actor.userId, ip: request.ip, details: role.name },
          tx,
        );
        return updated;
      });
      return sendRecord(reply, row);
    },
  });

  api.delete('/api/v1/roles/:id', {
    config: { access: { resource: 'roles', action: 'delete' } },
    schema: { tags, summary: 'Delete a role', params: idParamsSchema, response: { 204: z.null(), ...errors } },
    handler: async (request, reply) => {
      const role = await database.db.transaction(async (tx) => {
        const found = await editableRole(database, request.actor, request.params.id, tx);
        const [{ n }] = (await database.rows<{ n: number }>(
          sql`select count(*)::int as n from users where role_id = ${request.params.id}`,
          tx,
        )) as [{ n: number }];
        if (n > 0)
          throw conflict(
            `${found.name} is given to ${n} user(s); give them another role first`,
            undefined,
            'role_in_use',
          );
        return found;
      });
      await deleteRecord(database, roles, request.params.id, undefined, dataDir);
      await recordAudit(database, {
        type: 'roleDeleted',
        actorId: request.actor.userId,
        ip: request.ip,
        details: role.name,
      });
      return reply.code(204).send(null);
    },
  });
}
