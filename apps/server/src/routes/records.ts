import { exportPermissions } from '@data-platform/shared/entities/access';
import { isCustomizable } from '@data-platform/shared/entities/custom-fields';
import { type EntityDescription, type Operation, operationsOf } from '@data-platform/shared/entities/entity';
import { createSchema, recordSchema, updateSchema } from '@data-platform/shared/entities/record-schema';
import { entityList, findEntity } from '@data-platform/shared/entities/registry';
import { type ExportFormat, exportFormats } from '@data-platform/shared/export-formats';
import {
  DEFAULT_PAGE_SIZE,
  ESTIMATED_COUNT_THRESHOLD,
  type ListQuery,
  listBodySchema,
  listQueryStringSchema,
  MAX_PAGE_SIZE,
  parseGetQuery,
  parseListBody,
  parseListQueryString,
} from '@data-platform/shared/query/list-query';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  assertRowReadable,
  bothScopes,
  limitJoins,
  readableScope,
  readerDescription,
  relatedRowsScope,
} from '../access/reading.ts';
import { type RecordChangeType, recordChange } from '../auth/audit.ts';
import { currentDescription } from '../crud/custom-fields.ts';
import { createRecord, deleteRecord, getRecord, listRecords, readRecord, updateRecord } from '../crud/records.ts';
import type { Database, Executor } from '../db/client.ts';
import { currentReader } from '../db/read-replica.ts';
import { notFound } from '../domain/errors.ts';
import type { RouteAccess } from '../http/auth.ts';
import { errorBodySchema, validateBody } from '../http/errors.ts';
import { readerFor } from '../http/read-after.ts';
import { idParamsSchema, versionFromIfMatch } from '../http/record-params.ts';
import { listResponseSchema, sendPage, sendRecord } from '../http/record-replies.ts';
import { exportContentTypes, exportStream } from '../io/export.ts';
import { exportFileName, exportPlan } from '../io/export-plan.ts';
import { registerAggregatesRoute } from './aggregates.ts';

const filterHelp = `Filters: \`filter[field][op]=value\` with op one of eq, ne, lt, lte, gt, gte, in (comma-separated),
contains, startsWith, isNull, notNull (\`filter[field]=value\` means eq). \`select=a,b\` returns only those fields and id.
\`join=relation(x,y)\` embeds a related record or list with only those fields. \`sort=field,-other\` sorts (id breaks ties).
\`q\` searches the searchable fields. \`page\`/\`pageSize\` (default ${DEFAULT_PAGE_SIZE}, max ${MAX_PAGE_SIZE}) page by offset;
\`cursor\` (the previous answer's \`nextCursor\`) pages by keyset at constant cost.
\`count\` asks for a total: \`exact\` counts the matching rows (in the same statement as the page), \`planned\` answers
the planner's estimate without reading any row, \`estimated\` counts exactly when the planner expects at most
${ESTIMATED_COUNT_THRESHOLD.toLocaleString('en')} rows and answers the estimate above. Without \`count\` nothing is counted and
\`total\` is null. \`totalExact\` is true for a counted total, false for an estimate, null without a total.`;

/** How long a download waits for a read replica to hold what the primary holds (its first byte waits as long). */
const REPLICA_WAIT_MS = 500;

const errorResponses = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

function registerEntityRoutes(
  app: FastifyInstance,
  database: Database,
  entity: EntityDescription,
  base: string,
  dataDir: string,
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ops = new Set<Operation>(operationsOf(entity));
  const tags = [entity.labelPlural];
  const access = (action: RouteAccess['action']) => ({ access: { resource: entity.name, action } });
  const list = async (request: FastifyRequest, described: EntityDescription, query: ListQuery, reply: FastifyReply) => {
    const { actor } = request;
    limitJoins(actor, query);
    const reader = await readerFor(database, request);
    return sendPage(reply, query, await listRecords(reader, described, query, readableScope(entity, actor)));
  };
  // Custom fields are known at request time: the route schema lets them through, the handler checks them.
  const customizable = isCustomizable(entity);
  const bodyOf = (schema: z.ZodObject) => (customizable ? schema.catchall(z.unknown()) : schema);
  // One event per record, even when the web app changes many at once: each call is its own change, kept or not.
  const audit = (request: FastifyRequest, tx: Executor, type: RecordChangeType, id: number, fields?: string[]) =>
    recordChange(
      database,
      { type, actorId: request.actor.userId, ip: request.ip, entity: entity.name, id, fields },
      tx,
    );
  const customHelp = customizable
    ? '\n\nCustom fields (`cf<id>`, see `/api/v1/custom-data`) are read and written beside the built-in fields.'
    : '';

  if (ops.has('list')) {
    api.get(base, {
      config: access('read'),
      schema: {
        tags,
        summary: `List ${entity.labelPlural.toLowerCase()}`,
        description: filterHelp,
        querystring: listQueryStringSchema,
        response: { 200: listResponseSchema(entity), ...errorResponses },
      },
      handler: async (request, reply) => {
        const described = await readerDescription(database, entity, request.actor);
        const query = parseListQueryString(described, request.query as Record<string, unknown>);
        return list(request, described, query, reply);
      },
    });
    api.post(`${base}/query`, {
      config: access('read'),
      schema: {
        tags,
        summary: `Query ${entity.labelPlural.toLowerCase()} with nested and/or filters`,
        description: `The list parameters as JSON; \`where\` takes nested \`{ and: [...] }\` / \`{ or: [...] }\` groups of \`{ field, op, value }\`.`,
        body: listBodySchema,
        response: { 200: listResponseSchema(entity), ...errorResponses },
      },
      handler: async (request, reply) => {
        const described = await readerDescription(database, entity, request.actor);
        return list(request, described, parseListBody(described, request.body), reply);
      },
    });
    registerAggregatesRoute(app, database, entity, base);
    if (exportPermissions(entity)) {
      api.get(`${base}/export`, {
        config: { ...access('read'), permission: `${entity.name}:export` },
        schema: {
          tags,
          summary: `Export ${entity.labelPlural.toLowerCase()} as CSV or XLSX`,
          description: `Every row of the list the parameters describe (\`select\`, \`filter\`, \`sort\`, \`q\`; paging
parameters are ignored), no row cap, streamed as the client reads it. Columns are the selected fields under
their labels (all but system bookkeeping without \`select\`); references are named, money is an amount and a currency
column, lists are joined with "; ". CSV is written by the database: on PostgreSQL one \`COPY ... TO STDOUT\` (the rows
as they were when the export started), on PGlite keyset pages (each matching row once). XLSX is written a page at a time.`,
          querystring: listQueryStringSchema.extend({ format: z.enum(exportFormats).default('csv') }),
          response: errorResponses,
        },
        handler: async (request, reply) => {
          const { format, ...raw } = request.query as Record<string, unknown> & { format: ExportFormat };
          const { described, query, scope, columns } = await exportPlan(database, entity, request.actor, raw);
          // The file is streamed as it is written; the typed reply knows only the JSON answers.
          return (reply as FastifyReply)
            .type(exportContentTypes[format])
            .header('content-disposition', `attachment; filename="${exportFileName(entity, format)}"`)
            .send(
              exportStream(await currentReader(database, REPLICA_WAIT_MS), described, query, scope, format, columns),
            );
        },
      });
    }
    for (const [relation, description] of Object.entries(entity.relations ?? {})) {
      const related = findEntity(
        description.kind === 'hasMany'
          ? description.to
          : (findEntity(description.via)?.fields[description.target]?.to ?? ''),
      );
      if (!related) continue;
      api.get(`${base}/:id/${relation}`, {
        config: {
          access: [
            { resource: entity.name, action: 'read' },
            { resource: related.name, action: 'read' },
          ],
        },
        schema: {
          tags,
          summary: `List the ${related.labelPlural.toLowerCase()} of a ${entity.label.toLowerCase()}`,
          description: `${filterHelp}\n\nRows linked through a link collection carry it as \`link\`.`,
          params: idParamsSchema,
          querystring: listQueryStringSchema,
          response: { 200: listResponseSchema(related), ...errorResponses },
        },
        handler: async (request, reply) => {
          const target = await readerDescription(database, related, request.actor);
          const query = parseListQueryString(target, request.query as Record<string, unknown>);
          limitJoins(request.actor, query);
          // The record the list hangs on must exist and be readable by the actor: checked inside the page's statement.
          const scope = relatedRowsScope(entity, relation, request.params.id, request.actor);
          if (!scope) throw notFound(`Relation ${relation}`);
          const page = await listRecords(
            await readerFor(database, request),
            target,
            query,
            bothScopes(scope, readableScope(target, request.actor)),
          );
          // No rows: a record without related rows, or no record the actor may read (404), which only it tells.
          if (page.rows.length === 0) {
            await getRecord(
              database,
              entity,
              request.params.id,
              { select: ['id'], join: [] },
              readableScope(entity, request.actor),
            );
          }
          return sendPage(reply, query, page);
        },
      });
    }
  }

  if (ops.has('get')) {
    api.get(`${base}/:id`, {
      config: access('read'),
      schema: {
        tags,
        summary: `Get a ${entity.label.toLowerCase()}`,
        params: idParamsSchema,
        querystring: z.object({ select: z.string().optional(), join: z.string().optional() }),
        response: { 200: recordSchema(entity).partial(), ...errorResponses },
      },
      handler: async (request, reply) => {
        const described = await readerDescription(database, entity, request.actor);
        const query = parseGetQuery(described, request.query);
        limitJoins(request.actor, query);
        const { row, version } = await readRecord(
          database,
          described,
          request.params.id,
          query,
          readableScope(entity, request.actor),
        );
        return sendRecord(reply, row, 200, version);
      },
    });
  }

  if (ops.has('create')) {
    api.post(base, {
      config: access('create'),
      schema: {
        tags,
        summary: `Create a ${entity.label.toLowerCase()}`,
        description: customHelp.trim() || undefined,
        body: bodyOf(createSchema(entity)),
        response: { 201: recordSchema(entity), 400: errorBodySchema, 409: errorBodySchema },
      },
      handler: async (request, reply) => {
        const described = await currentDescription(database, entity);
        const body = customizable ? validateBody(createSchema(described), request.body) : request.body;
        const values = body as Record<string, unknown>;
        // The row and its audit event in one statement (see createRecord).
        const row = await createRecord(database, described, values, request.actor, {}, undefined, { ip: request.ip });
        return sendRecord(reply, row, 201);
      },
    });
  }

  if (ops.has('update')) {
    api.patch(`${base}/:id`, {
      config: access('update'),
      schema: {
        tags,
        summary: `Update a ${entity.label.toLowerCase()}`,
        description: `Send \`If-Match: <version>\`. A stale version answers 412, a missing one 428.${customHelp}`,
        params: idParamsSchema,
        headers: z.looseObject({ 'if-match': z.string().optional() }),
        body: bodyOf(updateSchema(entity)),
        response: {
          200: recordSchema(entity),
          ...errorResponses,
          409: errorBodySchema,
          412: errorBodySchema,
          428: errorBodySchema,
        },
      },
      handler: async (request, reply) => {
        const version = versionFromIfMatch(request.headers['if-match'], true) as number;
        const described = await currentDescription(database, entity);
        const body = customizable ? validateBody(updateSchema(described), request.body) : request.body;
        const values = body as Record<string, unknown>;
        // One statement: the update where the row has this version and is readable by the actor
        // (404 when not), its audit event, and why nothing was written when nothing was.
        const row = await updateRecord(
          database,
          described,
          request.params.id,
          version,
          values,
          request.actor,
          undefined,
          {
            origin: { ip: request.ip },
            scope: readableScope(entity, request.actor),
          },
        );
        return sendRecord(reply, row);
      },
    });
  }

  if (ops.has('delete')) {
    api.delete(`${base}/:id`, {
      config: access('delete'),
      schema: {
        tags,
        summary: `Delete a ${entity.label.toLowerCase()}`,
        description:
          'Deletes the record, its links and the notes and files attached to it. `If-Match` is optional; when sent, a stale version answers 412.',
        params: idParamsSchema,
        headers: z.looseObject({ 'if-match': z.string().optional() }),
        response: { 204: z.null(), ...errorResponses, 412: errorBodySchema },
      },
      handler: async (request, reply) => {
        const version = versionFromIfMatch(request.headers['if-match'], false);
        await assertRowReadable(database, entity, request.params.id, request.actor);
        // With its custom fields, so that the history entry keeps their values too.
        const described = await currentDescription(database, entity);
        await deleteRecord(
          database,
          described,
          request.params.id,
          version,
          dataDir,
          (tx) => audit(request, tx, 'recordDeleted', request.params.id),
          request.actor.userId,
        );
        return reply.code(204).send(null);
      },
    });
  }
}

/** Mounts list, query, get, create, update, delete and relation lists for every entity, also under its path alias. */
export function registerCrudRoutes(app: FastifyInstance, database: Database, dataDir: string): void {
  for (const entity of entityList) {
    for (const segment of [entity.name, ...(entity.pathAlias ? [entity.pathAlias] : [])]) {
      registerEntityRoutes(app, database, entity, `/api/v1/${segment}`, dataDir);
    }
  }
}
