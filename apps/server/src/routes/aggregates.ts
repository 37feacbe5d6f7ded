import type { EntityDescription } from '@data-platform/shared/entities/entity';
import {
  aggregatesQueryStringSchema,
  aggregatesResponseSchema,
  parseAggregatesQuery,
} from '@data-platform/shared/query/aggregates';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { readableScope, readerDescription } from '../access/reading.ts';
import { aggregateRows } from '../crud/aggregates.ts';
import type { Database } from '../db/client.ts';
import { errorBodySchema } from '../http/errors.ts';
import { readerFor } from '../http/read-after.ts';

const description = `Totals of the whole filtered list, not of a page: \`count\` of its rows and, per field of
\`fields\` (numbers and money; all the reader may read when absent), the count of rows with a value, the sum, the
average, the minimum and the maximum. Filters and \`q\` are the list's (\`filter[field][op]=value\`, see the list).
Numbers are decimal strings, exact as the database computes them (no float drift; averages trimmed of trailing
zeros). Money, and amounts with a currency field, are totalled per currency (\`kind: "money"\`, \`currencies\`), never
added across currencies. \`groupBy\` (a picklist) adds \`groups\`: the same totals per option, in the options' order,
rows without a value last. One SQL statement; the reader's row and field rights apply as on the list.`;

/** `GET {base}/aggregates` for one entity: its list's totals, with the list's read access. */
export function registerAggregatesRoute(
  app: FastifyInstance,
  database: Database,
  entity: EntityDescription,
  base: string,
): void {
  app.withTypeProvider<ZodTypeProvider>().get(`${base}/aggregates`, {
    config: { access: { resource: entity.name, action: 'read' } },
    schema: {
      tags: [entity.labelPlural],
      summary: `Totals of a list of ${entity.labelPlural.toLowerCase()}`,
      description,
      querystring: aggregatesQueryStringSchema,
      response: {
        200: aggregatesResponseSchema,
        400: errorBodySchema,
        401: errorBodySchema,
        403: errorBodySchema,
      },
    },
    handler: async (request) => {
      const described = await readerDescription(database, entity, request.actor);
      const query = parseAggregatesQuery(described, request.query as Record<string, unknown>);
      return aggregateRows(await readerFor(database, request), described, query, readableScope(entity, request.actor));
    },
  });
}
