import { readableDescription } from '@data-platform/shared/entities/access';
import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import { allPermissions } from '@data-platform/shared/permissions';
import type { ListQuery } from '@data-platform/shared/query/list-query';
import { type SQL, sql } from 'drizzle-orm';
import type { Actor } from '../auth/actor.ts';
import { userWithinRightsSql } from '../auth/rights.ts';
import { columnName } from '../db/columns.ts';
import { forbidden } from '../http/errors.ts';
import { type ListScope, whereSql } from './list-compiler.ts';
import { column } from './sql-fragments.ts';

/**
 * The rows of an entity the actor may read beyond its access rule (see
 * `limitedRead` and `privateTo` in the entity description); undefined when
 * every row is readable. Applied in SQL, with the fields of
 * `readableDescription`, on every generic path that reads the entity.
 */
export function limitedRowsScope(entity: EntityDescription, actor: Actor): ListScope | undefined {
  const parts: SQL[] = [];
  const limit = entity.limitedRead;
  if (limit?.rows && !actor.permissions.has(limit.permission)) {
    parts.push(whereSql(entity, { where: { field: limit.rows.field, op: 'in', value: [...limit.rows.oneOf] } }));
  }
  if (entity.privateTo) {
    const administrator = allPermissions.every((p) => actor.permissions.has(p));
    parts.push(administrator ? userWithinRightsSql(actor, column('t', columnName(entity.privateTo))) : sql`false`);
  }
  return parts.length > 0 ? { where: sql.join(parts, sql` and `) } : undefined;
}

/**
 * 403 when a join asks for fields of the joined entity the actor may not read
 * (`join=createdBy(email)` by a user without `users:read`).
 */
export function assertJoinedFieldsReadable(actor: Actor, query: Pick<ListQuery, 'join'>): void {
  for (const join of query.join) {
    const target = findEntity(join.target);
    if (!target?.limitedRead) continue;
    const readable = allFields(readableDescription(target, actor.permissions));
    if (join.fields.some((name) => !Object.hasOwn(readable, name))) throw forbidden([target.limitedRead.permission]);
  }
}
