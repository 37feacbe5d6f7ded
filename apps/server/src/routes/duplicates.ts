import {
  dismissPairSchema,
  duplicateEntities,
  duplicatesPageSchema,
  duplicatesQuerySchema,
  mergeableFields,
  mergeBodySchema,
  mergePicks,
  mergeResultSchema,
} from '@data-platform/shared/duplicates';
import type { EntityDescription } from '@data-platform/shared/entities/entity';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readerDescription } from '../access/reading.ts';
import { currentDescription } from '../crud/custom-fields.ts';
import type { Database } from '../db/client.ts';
import { dismissPair, findDuplicates } from '../domain/duplicates.ts';
import { notFound } from '../domain/errors.ts';
import { mergeRecords } from '../domain/merge.ts';
import { errorBodySchema, validateBody } from '../http/errors.ts';

const errorResponses = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/**
 * `GET /{resource}/duplicates`, `POST /{resource}/duplicates/dismiss` and
 * `POST /{resource}/merge` for every entity whose description says
 * `duplicates: true` (decision 0032).
 */
function registerEntityDuplicateRoutes(app: FastifyInstance, database: Database, entity: EntityDescription): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const base = `/api/v1/${entity.name}`;
  const tags = [entity.labelPlural];
  const plural = entity.labelPlural.toLowerCase();
  const keys = (entity.dedupKeys ?? []).join(', ');

  api.get(`${base}/duplicates`, {
    config: { access: { resource: entity.name, action: 'read' } },
    schema: {
      tags,
      summary: `Likely duplicate ${plural}`,
      description: `Pairs of ${plural} that look like the same thing: the same value of a key field (${keys}, ignoring
case) or names spelled alike (trigram similarity, with its score), each pair once with both records and the reasons.
Only records the caller may read; pairs dismissed as not duplicates are left out. Each page looks at a bounded number
of records: follow \`nextCursor\` until it is null (a page may hold fewer pairs than \`limit\`, even none).`,
      querystring: duplicatesQuerySchema,
      response: { 200: duplicatesPageSchema, ...errorResponses },
    },
    handler: async (request) => {
      const described = await readerDescription(database, entity, request.actor);
      return findDuplicates(database, entity, described, request.actor, request.query);
    },
  });

  api.post(`${base}/duplicates/dismiss`, {
    config: { access: { resource: entity.name, action: 'update' } },
    schema: {
      tags,
      summary: `Mark two ${plural} as not duplicates`,
      description: 'The pair is no longer listed as likely duplicates, for anyone. Both records must be readable.',
      body: dismissPairSchema,
      response: { 204: z.null(), ...errorResponses },
    },
    handler: async (request, reply) => {
      const [missing] = await dismissPair(database, entity, request.body.ids, request.actor);
      if (missing !== undefined) throw notFound(`${entity.label} ${missing}`);
      return reply.code(204).send(null);
    },
  });

  api.post(`${base}/merge`, {
    config: {
      access: [
        { resource: entity.name, action: 'update' },
        { resource: entity.name, action: 'delete' },
      ],
    },
    schema: {
      tags,
      summary: `Merge two ${plural} into one`,
      description: `In one transaction: the survivor takes, per field, the value \`picks\` names ('survivor' by
default, 'merged' for the other record's; custom fields too); every link, reference, note, file, task and history entry
of the merged record moves to the survivor (a link both had is kept once); the merged record is deleted. Both
timelines tell it: the survivor's changed fields and the record merged into it, the merged record's deletion. A stale
\`survivorVersion\` or \`mergedVersion\` answers 412 and writes nothing; an unknown or unreadable id 404.`,
      body: z.looseObject({
        survivorId: z.number(),
        mergedId: z.number(),
        survivorVersion: z.number(),
        mergedVersion: z.number(),
        picks: z.record(z.string(), z.enum(mergePicks)).optional(),
      }),
      response: { 200: mergeResultSchema, ...errorResponses, 412: errorBodySchema },
    },
    handler: async (request) => {
      // Fields are known at request time (custom ones): the route schema lets any through, checked here.
      const readable = await readerDescription(database, entity, request.actor);
      const body = validateBody(mergeBodySchema(mergeableFields(readable)), request.body);
      return mergeRecords(database, await currentDescription(database, entity), body, request.actor, {
        ip: request.ip,
      });
    },
  });
}

export function registerDuplicateRoutes(app: FastifyInstance, database: Database): void {
  for (const entity of duplicateEntities) registerEntityDuplicateRoutes(app, database, entity);
}
