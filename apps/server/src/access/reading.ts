/**
 * Who may read which rows and fields: every generic path that reads an
 * entity (lists, relation lists, records, joins, exports, search, the home
 * dashboard, import's look-up of names) asks this module, and nothing else
 * decides it. The rules themselves are the shared ones
 * (packages/shared/src/entities/access.ts) the web app also asks; here they
 * become refusals and SQL scopes.
 */
import {
  mayAct,
  readableAttachmentTypes,
  readableDescription,
  requiredPermissions,
} from '@data-platform/shared/entities/access';
import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import { allPermissions } from '@data-platform/shared/permissions';
import type { ListQuery } from '@data-platform/shared/query/list-query';
import { type SQL, sql } from 'drizzle-orm';
import { type Actor, missingPermissions } from '../auth/actor.ts';
import { currentDescription } from '../crud/custom-fields.ts';
import { attachmentScope, type ListScope, limitedRowsWhere, ROOT, relationScope } from '../crud/list-compiler.ts';
import { getRecord } from '../crud/records.ts';
import { column } from '../crud/sql-fragments.ts';
import type { Database } from '../db/client.ts';
import { columnName } from '../db/columns.ts';
import { forbidden } from '../domain/errors.ts';
import { userWithinRightsSql } from './delegation.ts';

/** The entity, when the actor may read its records at all (rows and fields may still be limited). */
export function readableEntity(actor: Actor, resource: string): EntityDescription | undefined {
  const entity = findEntity(resource);
  return entity && mayAct(entity, 'read', actor.permissions) ? entity : undefined;
}

/** Refused, naming the permissions, unless the actor may read the resource's records. */
export function assertMayRead(actor: Actor, resource: string): void {
  const entity = findEntity(resource);
  if (!entity) throw new Error(`No entity named ${resource}`);
  const missing = missingPermissions(actor, requiredPermissions(entity, 'read'));
  if (missing.length > 0) throw forbidden(missing);
}

/** The entity with its custom fields, as the actor may read it (see `readableDescription`): what a read parses against. */
export async function readerDescription(
  database: Database,
  entity: EntityDescription,
  actor: Actor,
): Promise<EntityDescription> {
  return readableDescription(await currentDescription(database, entity), actor.permissions);
}

/**
 * The rows of an entity the actor may read beyond its access rule (see
 * `limitedRead` and `privateTo` in the entity description); undefined when
 * every row is readable. Applied in SQL, with the fields of
 * `readableDescription`, on every generic path that reads the entity.
 */
export function limitedRowsScope(entity: EntityDescription, actor: Actor): ListScope | undefined {
  const parts: SQL[] = [];
  const limited = entity.limitedRead && !actor.permissions.has(entity.limitedRead.permission);
  const rows = limited ? limitedRowsWhere(entity) : undefined;
  if (rows) parts.push(rows);
  if (entity.privateTo) {
    const administrator = allPermissions.every((p) => actor.permissions.has(p));
    parts.push(administrator ? userWithinRightsSql(actor, column('t', columnName(entity.privateTo))) : sql`false`);
  }
  if (parts.length === 0) return undefined;
  const where = sql.join(parts, sql` and `);
  // What the SQL follows: whether the rows are limited, and the rights a private row's user must be within.
  const key = `${entity.name} rows ${limited ? 'limited' : 'all'} ${entity.privateTo ? [...actor.permissions].sort().join(',') : ''}`;
  return { where, shape: { key, values: [], rebuild: () => ({ where }) } };
}

/** Both scopes must hold. */
export function bothScopes(a: ListScope | undefined, b: ListScope | undefined): ListScope | undefined {
  if (!a || !b) return a ?? b;
  const both: ListScope = {
    where: sql`(${a.where}) and (${b.where})`,
    extra: [...(a.extra ?? []), ...(b.extra ?? [])],
  };
  const [first, second] = [a.shape, b.shape];
  if (!first || !second) return both;
  const split = first.values.length;
  both.shape = {
    key: `(${first.key}) and (${second.key})`,
    values: [...first.values, ...second.values],
    rebuild: (values) =>
      bothScopes(first.rebuild(values.slice(0, split)), second.rebuild(values.slice(split))) as ListScope,
  };
  return both;
}

/**
 * The rows the actor may read: those `limitedRowsScope` keeps, and for rows
 * attached to records (notes, files) only those on record types the actor
 * may read (see `readableAttachmentTypes`).
 */
export function readableScope(entity: EntityDescription, actor: Actor): ListScope | undefined {
  const attached = entity.attachedTo
    ? attachmentScope(entity, readableAttachmentTypes(entity, actor.permissions))
    : undefined;
  return bothScopes(attached, limitedRowsScope(entity, actor));
}

/**
 * A record's related rows (`relationScope`) while the record itself exists
 * and the actor may read it (`readableScope`): the related list's check of
 * the record it hangs on, inside the list's own statement. It is uncorrelated
 * (PostgreSQL runs it once, as an InitPlan), so the page's plan and index are
 * the relation's own, and `equals` is kept (repeats-its-plan.ts). An empty
 * page does not tell a missing record from one without related rows: the
 * caller reads the record then, and only then, to answer 404.
 */
export function relatedRowsScope(
  entity: EntityDescription,
  relation: string,
  id: number,
  actor: Actor,
): ListScope | undefined {
  return relatedWhileReadable(entity, relation, id, readableScope(entity, actor));
}

function relatedWhileReadable(
  entity: EntityDescription,
  relation: string,
  id: number,
  owner: ListScope | undefined,
): ListScope | undefined {
  const related = relationScope(entity, relation, id);
  if (!related) return undefined;
  const readable = owner ? sql` and (${owner.where})` : sql``;
  const exists = sql`exists (select from ${sql.identifier(entity.table)} ${sql.identifier(ROOT)}
    where ${column(ROOT, 'id')} = ${id}${readable})`;
  const scope: ListScope = { ...related, where: sql`(${related.where}) and ${exists}` };
  const shape = related.shape;
  if (!shape || (owner && !owner.shape)) return { ...scope, shape: undefined };
  const ownerShape = owner?.shape;
  const split = shape.values.length;
  scope.shape = {
    key: `${shape.key} while ${entity.name} ${ownerShape ? `(${ownerShape.key})` : 'exists'}`,
    values: [...shape.values, ...(ownerShape?.values ?? [])],
    rebuild: (values) =>
      relatedWhileReadable(
        entity,
        relation,
        values[0] as number,
        ownerShape?.rebuild(values.slice(split)),
      ) as ListScope,
  };
  return scope;
}

/** Not found unless the actor may read the row: a note on an investor does not exist for someone who cannot read investors. */
export async function assertRowReadable(
  database: Database,
  entity: EntityDescription,
  id: number,
  actor: Actor,
): Promise<void> {
  const scope = readableScope(entity, actor);
  if (scope) await getRecord(database, entity, id, { select: ['id'], join: [] }, scope);
}

/**
 * Joins as the actor may have them: refused when the actor may not read a
 * joined entity, or asks for fields of it the actor may not read
 * (`join=createdBy(email)` without `users:read`); each join to an entity
 * that limits rows is marked to embed only the rows the actor may see (an
 * owner who is still only invited is not named).
 */
export function limitJoins(actor: Actor, query: Pick<ListQuery, 'join'>): void {
  for (const join of query.join) {
    assertMayRead(actor, join.target);
    const target = findEntity(join.target);
    if (!target?.limitedRead || actor.permissions.has(target.limitedRead.permission)) continue;
    const readable = allFields(readableDescription(target, actor.permissions));
    if (join.fields.some((name) => !Object.hasOwn(readable, name))) throw forbidden([target.limitedRead.permission]);
    join.limitedRows = true;
  }
}
