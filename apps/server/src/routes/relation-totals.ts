import type { EntityDescription, RelationDescription } from '@data-platform/shared/entities/entity';
import { entityList, findEntity } from '@data-platform/shared/entities/registry';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bothScopes, readableScope } from '../access/reading.ts';
import { ROOT, relationScope } from '../crud/list-compiler.ts';
import { column } from '../crud/sql-fragments.ts';
import { type Database, jsonValue } from '../db/client.ts';
import { columnName, currencyColumnName } from '../db/columns.ts';
import { notFound } from '../domain/errors.ts';
import { errorBodySchema } from '../http/errors.ts';
import { readerFor } from '../http/read-after.ts';
import { idParamsSchema } from '../http/record-params.ts';

/** Per field: the sum of each currency (money) or the one sum (a number), over every related row. */
const totalsSchema = z.object({
  count: z.number().int(),
  sums: z.record(z.string(), z.record(z.string(), z.number())),
});
export type RelationTotals = z.infer<typeof totalsSchema>;

/** Field types a relation panel totals: money per currency, and whole or decimal numbers. */
const summed = new Set(['money', 'integer', 'decimal']);

/**
 * The fields a relation panel totals, each with whether it is money: of a
 * link collection, the link's own fields (a commitment); of owned rows, the
 * columns the panel shows (the related list's first columns). Percentages,
 * multiples, years, ratings do not add up; an amount whose currency is a
 * sibling field is a figure of its own row (a quarter's NAV, a fund's target
 * size), not a part of a whole.
 */
export function relationTotalFields(description: RelationDescription): [string, boolean][] {
  if (description.kind === 'manyToMany') {
    const via = findEntity(description.via);
    return Object.entries(via?.fields ?? {})
      .filter(([name, field]) => name !== description.from && name !== description.target && summed.has(field.type))
      .map(([name, field]) => [name, field.type === 'money']);
  }
  const target = findEntity(description.to);
  return (target?.list.defaultShows ?? [])
    .filter((name) => name !== description.foreignKey && summed.has(target?.fields[name]?.type ?? ''))
    .map((name) => [name, target?.fields[name]?.type === 'money']);
}

/**
 * `sum` per currency of a money column (never across currencies), or under
 * the key "" for a plain number, as a JSON object; null when no row has a value.
 */
function sumJson(alias: string, name: string, money: boolean, rows: SQL): SQL {
  const amount = column(alias, columnName(name));
  if (!money) return sql`(select json_build_object('', sum(${amount})) from ${rows} having count(${amount}) > 0)`;
  const currency = column(alias, currencyColumnName(name));
  return sql`(select json_object_agg(c, s) from (select ${currency} c, sum(${amount}) s from ${rows}
    and ${amount} is not null group by ${currency}) per_currency)`;
}

/**
 * One statement: whether the record is there for the actor (`found`), how many related rows the actor may read, and the sums of
 * the relation's total fields over all of them (see relationTotalFields):
 * the link's own fields for a link collection (the commitment each deal of an
 * investor carries), the related rows' for owned rows.
 */
function totalsSql(
  owner: EntityDescription,
  ownerScope: SQL,
  description: RelationDescription,
  id: number,
  target: EntityDescription,
  scope: SQL,
): SQL {
  const fields = relationTotalFields(description);
  const related = sql`(select ${column(ROOT, 'id')} from ${sql.identifier(target.table)} ${sql.identifier(ROOT)} where ${scope})`;
  const sums: SQL[] = [];
  if (description.kind === 'manyToMany') {
    const via = findEntity(description.via) as EntityDescription;
    const links = sql`${sql.identifier(via.table)} l where ${column('l', columnName(description.from))} = ${id}
      and ${column('l', columnName(description.target))} in ${related}`;
    for (const [name, money] of fields) sums.push(sql`${name}::text, ${sumJson('l', name, money, links)}`);
  } else {
    const rows = sql`${sql.identifier(target.table)} r where r.id in ${related}`;
    for (const [name, money] of fields) sums.push(sql`${name}::text, ${sumJson('r', name, money, rows)}`);
  }
  const sumsJson = sums.length > 0 ? sql`json_build_object(${sql.join(sums, sql`, `)})` : sql`'{}'::json`;
  const found = sql`exists (select 1 from ${sql.identifier(owner.table)} ${sql.identifier(ROOT)}
    where ${column(ROOT, 'id')} = ${id} and (${ownerScope}))`;
  return sql`select ${found} as found, (select count(*) from ${related} counted)::int as count, ${sumsJson} as sums`;
}

function relatedEntity(description: RelationDescription): EntityDescription | undefined {
  return findEntity(
    description.kind === 'hasMany'
      ? description.to
      : (findEntity(description.via)?.fields[description.target]?.to ?? ''),
  );
}

/**
 * `GET /api/v1/{resource}/{id}/{relation}/totals` for every relation of
 * every entity: a record page's relation panel shows these under its rows,
 * for all of them, not only the page it has loaded.
 */
export function registerRelationTotalRoutes(app: FastifyInstance, database: Database): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  for (const entity of entityList) {
    for (const [relation, description] of Object.entries(entity.relations ?? {})) {
      const related = relatedEntity(description);
      if (!related) continue;
      for (const segment of [entity.name, ...(entity.pathAlias ? [entity.pathAlias] : [])]) {
        api.get(`/api/v1/${segment}/:id/${relation}/totals`, {
          config: {
            access: [
              { resource: entity.name, action: 'read' },
              { resource: related.name, action: 'read' },
            ],
          },
          schema: {
            tags: [entity.labelPlural],
            summary: `Count and sum the ${related.labelPlural.toLowerCase()} of a ${entity.label.toLowerCase()}`,
            description:
              'Over every related row the caller may read: `count`, and in `sums` per field the sum of each currency (money, never across currencies) or under "" of a number. A link collection sums the link’s own fields (a commitment).',
            params: idParamsSchema,
            response: { 200: totalsSchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema },
          },
          handler: async (request) => {
            const { id } = request.params;
            const scope = bothScopes(relationScope(entity, relation, id), readableScope(related, request.actor));
            if (!scope) throw notFound(`Relation ${relation}`);
            const ownerScope = readableScope(entity, request.actor)?.where ?? sql`true`;
            // The record (within what the actor reads), its related rows' count and their sums: one statement.
            const reader = await readerFor(database, request);
            const [row] = await reader.rows<{ found: boolean; count: number; sums: unknown }>(
              totalsSql(entity, ownerScope, description, id, related, scope.where),
            );
            if (!row?.found) throw notFound(`${entity.label} ${id}`);
            const sums = jsonValue(row.sums ?? {}) as Record<string, Record<string, number | string> | null>;
            return {
              count: Number(row?.count ?? 0),
              sums: Object.fromEntries(
                Object.entries(sums).map(([name, perCurrency]) => [
                  name,
                  Object.fromEntries(Object.entries(perCurrency ?? {}).map(([k, v]) => [k, Number(v)])),
                ]),
              ),
            };
          },
        });
      }
    }
  }
}
