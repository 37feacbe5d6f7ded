import { dashboardSummariesSchema } from '@data-platform/shared/summaries';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../db/client.ts';
import { dashboardSummaries } from '../domain/summaries.ts';
import { errorBodySchema } from '../http/errors.ts';
import { readerFor } from '../http/read-after.ts';

export function registerSummaryRoutes(app: FastifyInstance, database: Database): void {
  app.withTypeProvider<ZodTypeProvider>().get('/api/v1/configs/summaries', {
    schema: {
      tags: ['Dashboard'],
      summary: 'The home dashboard: counts, pipeline, fundraising, fund statuses and recent notes',
      description: 'Each part is present only when the signed-in user may read that record type.',
      response: { 200: dashboardSummariesSchema, 401: errorBodySchema },
    },
    handler: async (request) => dashboardSummaries(database, request.actor, await readerFor(database, request)),
  });
}
