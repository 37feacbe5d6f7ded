import { readableDescription } from '@data-platform/shared/entities/access';
import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import { allPermissions } from '@data-platform/shared/permissions';
import type { ListQuery } from '@data-platform/shared/query/list-query';
import { type SQL, sql } from 'drizzle-orm';
import type { Actor } from '../auth/actor.ts';
import { userWithinRightsSql } from '../auth/rights.ts';
import { columnName } from '../db/columns.ts';
import { forbidden } from '../domain/errors.ts';
import { type ListScope, limitedRowsWhere } from './list-compiler.ts';
import { column } from './sql-fragments.ts';

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
  return parts.length > 0 ? { where: sql.join(parts, sql` and `) } : undefined;
}

/**
 * Joins as the actor may have them: 403 when one asks for fields of the
 * joined entity the actor may not read (`join=createdBy(email)` without
 * `users:read`), and each join to such an entity marked to embed only the
 * rows the actor may see (an owner who is still only invited is not named).
 */
export function limitJoins(actor: Actor, query: Pick<ListQuery, 'join'>): void {
  for (const join of query.join) {
    const target = findEntity(join.target);
    if (!target?.limitedRead || actor.permissions.has(target.limitedRead.permission)) continue;
    const readable = allFields(readableDescription(target, actor.permissions));
    if (join.fields.some((name) => !Object.hasOwn(readable, name))) throw forbidden([target.limitedRead.permission]);
    join.limitedRows = true;
  }
}
