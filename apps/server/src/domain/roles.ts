import { roles } from '@data-platform/shared/entities/roles';
import { sql } from 'drizzle-orm';
import { assertWithinRights } from '../access/delegation.ts';
import type { Actor } from '../auth/actor.ts';
import { recordAudit } from '../auth/audit.ts';
import { createRecord, deleteRecord, updateRecord } from '../crud/records.ts';
import type { Database, Executor } from '../db/client.ts';
import type { CommandContext, Requester } from './context.ts';
import { conflict, notFound } from './errors.ts';
import { assertGrantable } from './role-grants.ts';

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
  if (role.built_in) {
    throw conflict(`${role.name} is built in and cannot be changed or deleted`, undefined, 'built_in_role');
  }
  assertWithinRights(actor, role.permissions, `You cannot change or delete ${role.name}`);
  return role;
}

/** Creates a role holding only permissions the actor holds (see assertGrantable); answers its record. */
export async function createRole(
  { database }: CommandContext,
  { actor, ip }: Requester,
  values: Record<string, unknown> & { permissions?: string[] },
): Promise<string> {
  assertGrantable(actor, values.permissions);
  return database.db.transaction(async (tx) => {
    const created = await createRecord(database, roles, values, actor, { builtIn: false }, tx);
    const { name } = JSON.parse(created) as { name: string };
    await recordAudit(database, { type: 'roleCreated', actorId: actor.userId, ip, details: name }, tx);
    return created;
  });
}

/**
 * Changes a role at the version the actor read: neither a built-in role, nor
 * one holding a permission the actor lacks, nor one the actor would give such
 * a permission. Users with the role get the change at their next request.
 */
export async function editRole(
  { database }: CommandContext,
  { actor, ip }: Requester,
  {
    roleId,
    version,
    values,
  }: { roleId: number; version: number; values: Record<string, unknown> & { permissions?: string[] } },
): Promise<string> {
  return database.db.transaction(async (tx) => {
    const role = await editableRole(database, actor, roleId, tx);
    assertGrantable(actor, values.permissions);
    const updated = await updateRecord(database, roles, roleId, version, values, actor, tx);
    await recordAudit(database, { type: 'roleUpdated', actorId: actor.userId, ip, details: role.name }, tx);
    return updated;
  });
}

/** Deletes a role nobody has, under the same rules as editing it. */
export async function deleteRole(
  { database, config }: CommandContext,
  { actor, ip }: Requester,
  { roleId }: { roleId: number },
): Promise<void> {
  const role = await database.db.transaction(async (tx) => {
    const found = await editableRole(database, actor, roleId, tx);
    const [{ n }] = (await database.rows<{ n: number }>(
      sql`select count(*)::int as n from users where role_id = ${roleId}`,
      tx,
    )) as [{ n: number }];
    if (n > 0) {
      throw conflict(`${found.name} is given to ${n} user(s); give them another role first`, undefined, 'role_in_use');
    }
    return found;
  });
  await deleteRecord(database, roles, roleId, undefined, config.dataDir);
  await recordAudit(database, { type: 'roleDeleted', actorId: actor.userId, ip, details: role.name });
}
