import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { exportPermissions } from '@data-platform/shared/entities/access';
import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { entityList, findEntity } from '@data-platform/shared/entities/registry';
import {
  activeExportStatuses,
  EXPORT_FILE_HOURS,
  type ExportJob,
  exportJobSchema,
  startExportSchema,
} from '@data-platform/shared/export-jobs';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Actor, missingPermissions } from '../auth/actor.ts';
import type { Config } from '../config.ts';
import { pgArrayLiteral } from '../crud/sql-fragments.ts';
import type { Database } from '../db/client.ts';
import { conflict, forbidden, invalid, notFound } from '../domain/errors.ts';
import { AppError, errorBodySchema } from '../http/errors.ts';
import { idParamsSchema } from '../http/record-params.ts';
import { exportContentTypes } from '../io/export.ts';
import { EXPORT_STALE_AFTER_MS, ExportRunner, exportPath, jobOf, listJobs, readJob } from '../io/export-jobs.ts';
import { exportFileName, exportPlan } from '../io/export-plan.ts';

/** The export permission of each entity that can be exported (`companies:export`...). */
const exportRights = entityList.flatMap(
  (entity) => exportPermissions(entity)?.filter((p) => p.endsWith(':export')) ?? [],
);

/**
 * What the routes over jobs declare (`config.anyOf`): a user who may export
 * nothing is refused (403) on the matched route. A job is then its owner's
 * alone (404 to anyone else), and its file needs its entity's export rights.
 */
const anyExportRight = { anyOf: exportRights } as const;

/** Jobs `GET /api/v1/exports` answers by default, and at most. */
const EXPORT_LIST_LIMIT = 20;
const EXPORT_LIST_MAX = 100;
const exportListQuerySchema = z.strictObject({
  entity: z.string().min(1).max(100).optional(),
  limit: z.coerce.number().int().min(1).max(EXPORT_LIST_MAX).optional(),
});

/** The entity named, when it can be exported and the actor holds the rights to (403 naming them). */
function exportableEntity(name: string, actor: Actor): EntityDescription {
  const entity = findEntity(name);
  const needed = entity ? exportPermissions(entity) : undefined;
  if (!entity || !needed) throw invalid({ entity: 'Records of this kind cannot be exported' });
  const missing = missingPermissions(actor, needed);
  if (missing.length > 0) throw forbidden(missing);
  return entity;
}

/** The caller's own job; 404 for anyone else's, as for one that does not exist. */
async function ownJob(database: Database, actor: Actor, id: number) {
  const row = await readJob(database, id);
  if (!row || row.user_id === null || Number(row.user_id) !== actor.userId) throw notFound(`Export ${id}`);
  return row;
}

/**
 * Export jobs: `POST /api/v1/{resource}/exports` starts one over the list its
 * body describes (202), `GET /api/v1/exports` lists the caller's,
 * `GET /api/v1/exports/{id}` follows one, `.../cancel` stops it,
 * `.../file` downloads what it wrote. The runner starts and stops with the server.
 */
export function registerExportJobRoutes(app: FastifyInstance, database: Database, config: Config): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const runner = new ExportRunner(database, config.dataDir, app.log);
  app.addHook('onReady', async () => runner.start());
  app.addHook('onClose', async () => runner.stop());

  for (const entity of entityList) {
    if (!exportPermissions(entity)) continue;
    for (const segment of [entity.name, ...(entity.pathAlias ? [entity.pathAlias] : [])]) {
      api.post(`/api/v1/${segment}/exports`, {
        config: { access: { resource: entity.name, action: 'read' }, permission: `${entity.name}:export` },
        schema: {
          tags: [entity.labelPlural],
          summary: `Export ${entity.labelPlural.toLowerCase()} as CSV or XLSX in the background`,
          description: `Starts a job that writes the same file as \`GET /api/v1/${segment}/export\` (the same bytes for CSV, the same cells for XLSX) to the server's disk: \`format\` (csv by default) and the list parameters that export takes, spelled as in its query string (\`select\`, \`sort\`, \`q\`, \`filter[field][op]\`: \`{"format": "xlsx", "filter[city][eq]": "Paris", "sort": "-name"}\`; a filter given several times as a list of values), checked the same way (400 naming each bad one). Answers 202 with the job; follow it at \`GET /api/v1/exports/{id}\`, download the file at \`GET /api/v1/exports/{id}/file\` once it has succeeded, for ${EXPORT_FILE_HOURS} hours. The job reads the rows the caller may read, with the rights they hold when it runs. One job at a time per user: 409 while another is queued or running.`,
          body: startExportSchema,
          response: { 202: exportJobSchema, 400: errorBodySchema, 403: errorBodySchema, 409: errorBodySchema },
        },
        handler: async (request, reply) => {
          const { format, ...params } = request.body;
          // Checked now as the job will read them: a bad parameter is the caller's 400, not a failed job.
          await exportPlan(database, entity, request.actor, params);
          const [started] = await database.rows<{ id: number | string }>(
            sql`insert into export_jobs (user_id, entity, format, params, file_name)
              values (${request.actor.userId}, ${entity.name}, ${format}, ${JSON.stringify(params)}::jsonb,
                ${exportFileName(entity, format)})
              on conflict do nothing returning id`,
          );
          if (!started) {
            const [going] = await database.rows<{ id: number | string }>(
              sql`select id from export_jobs where user_id = ${request.actor.userId}
                and status = any(${pgArrayLiteral([...activeExportStatuses])}::text[])`,
            );
            const which = going ? `Your export ${going.id}` : 'Another export of yours';
            throw conflict(
              `${which} is still going: wait for it to end, or cancel it, before starting another`,
              undefined,
              'export_going',
            );
          }
          const id = Number(started.id);
          runner.kick();
          const job = jobOf((await readJob(database, id)) as NonNullable<Awaited<ReturnType<typeof readJob>>>);
          return reply.code(202).header('location', `/api/v1/exports/${id}`).send(job);
        },
      });
    }
  }

  api.get('/api/v1/exports', {
    config: anyExportRight,
    schema: {
      tags: ['Exports'],
      summary: "The caller's export jobs, newest first",
      description: `The caller's own export jobs, newest first, at most \`limit\` (${EXPORT_LIST_LIMIT} by default, ${EXPORT_LIST_MAX} at most); with \`entity\`, those of one kind of record, for which the caller needs the export rights. Each as \`GET /api/v1/exports/{id}\` answers it.`,
      querystring: exportListQuerySchema,
      response: { 200: z.object({ data: z.array(exportJobSchema) }), 400: errorBodySchema, 403: errorBodySchema },
    },
    handler: async (request) => {
      const { entity, limit = EXPORT_LIST_LIMIT } = request.query;
      const kind = entity === undefined ? undefined : exportableEntity(entity, request.actor).name;
      const rows = await listJobs(database, request.actor.userId, kind, limit);
      return { data: rows.map(jobOf) };
    },
  });

  api.get('/api/v1/exports/:id', {
    config: anyExportRight,
    schema: {
      tags: ['Exports'],
      summary: 'An export job: its progress and file',
      description: `Status (queued, running, succeeded, failed, cancelled), rows written, the list's total as a list estimates it (\`totalExact\`: counted or the planner's estimate; the rows written once succeeded), bytes, rows per second and seconds left, when it started and finished, why it failed, the file's name, when the file expires (${EXPORT_FILE_HOURS} hours after the end) and \`fileUrl\` while it can be downloaded. A job whose server stopped or died while writing is failed (within ${(EXPORT_STALE_AFTER_MS / 1000) * 2} seconds for a server killed) and its partial file removed; start it again. For the user who started it only (404 otherwise).`,
      params: idParamsSchema,
      response: { 200: exportJobSchema, 404: errorBodySchema },
    },
    handler: async (request): Promise<ExportJob> => jobOf(await ownJob(database, request.actor, request.params.id)),
  });

  api.post('/api/v1/exports/:id/cancel', {
    config: anyExportRight,
    schema: {
      tags: ['Exports'],
      summary: 'Cancel an export job',
      description:
        'A queued job is cancelled at once; a running one stops within about a second and its partial file is removed. Answers 202 with the job (`cancelRequested` true while it stops); 409 when the job has ended.',
      params: idParamsSchema,
      response: { 202: exportJobSchema, 404: errorBodySchema, 409: errorBodySchema },
    },
    handler: async (request, reply) => {
      const row = await ownJob(database, request.actor, request.params.id);
      const [asked] = await database.rows<{ id: number | string }>(
        sql`update export_jobs set cancel_requested = true,
            message = case when status = 'queued' then 'Cancelled before it started' else message end,
            finished_at = case when status = 'queued' then now() else finished_at end,
            status = case when status = 'queued' then 'cancelled' else status end
          where id = ${row.id} and status = any(${pgArrayLiteral([...activeExportStatuses])}::text[]) returning id`,
      );
      if (!asked) throw conflict(`This export has ended (${row.status}); nothing to cancel`);
      runner.cancel(Number(row.id));
      return reply.code(202).send(jobOf((await readJob(database, Number(row.id))) as typeof row));
    },
  });

  api.get('/api/v1/exports/:id/file', {
    config: anyExportRight,
    schema: {
      tags: ['Exports'],
      summary: "Download an export job's file",
      description: `The file the job wrote, whole, with the content type and file name the streamed export gives it. For the user who started the job (404 otherwise), while their role allows exporting its records (403). 409 while the job has not succeeded; 410 once the file has expired (${EXPORT_FILE_HOURS} hours after the job ended).`,
      params: idParamsSchema,
      response: {
        200: z.any(),
        403: errorBodySchema,
        404: errorBodySchema,
        409: errorBodySchema,
        410: errorBodySchema,
      },
    },
    handler: async (request, reply) => {
      const row = await ownJob(database, request.actor, request.params.id);
      exportableEntity(row.entity, request.actor);
      if (row.status !== 'succeeded') {
        throw conflict(`This export has no file: it is ${row.status}`, undefined, 'export_not_ready');
      }
      const job = jobOf(row);
      if (job.fileUrl === null) {
        throw new AppError(
          410,
          'export_expired',
          `This export's file expired at ${job.expiresAt}; export the list again`,
        );
      }
      const file = exportPath(config.dataDir, job.id);
      // The row said the file is there; a file removed meanwhile (the sweep) is gone all the same.
      const size = await stat(file).then(
        (found) => found.size,
        () => undefined,
      );
      if (size === undefined) {
        throw new AppError(410, 'export_expired', `This export's file is no longer kept; export the list again`);
      }
      return (reply as FastifyReply)
        .headers({
          'content-type': exportContentTypes[job.format],
          'content-length': String(size),
          'content-disposition': `attachment; filename="${job.fileName}"`,
        })
        .send(createReadStream(file));
    },
  });
}
