import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply, LogController } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { mapDatabaseError } from '../db/errors.ts';
import { createMailer } from '../mail/mailer.ts';
import { registerActivityRoutes } from '../routes/activity.ts';
import { registerAnalyticsRoutes } from '../routes/analytics.ts';
import { registerAuthRoutes } from '../routes/auth.ts';
import { registerDuplicateRoutes } from '../routes/duplicates.ts';
import { registerExportJobRoutes } from '../routes/export-jobs.ts';
import { registerFileRoutes } from '../routes/files.ts';
import { registerHistoryRoutes } from '../routes/history.ts';
import { registerImportRoutes } from '../routes/import.ts';
import { registerCrudRoutes } from '../routes/records.ts';
import { registerRelationTotalRoutes } from '../routes/relation-totals.ts';
import { registerRoleRoutes } from '../routes/roles.ts';
import { registerSavedViewRoutes } from '../routes/saved-views.ts';
import { registerSearchRoutes } from '../routes/search.ts';
import { registerSummaryRoutes } from '../routes/summaries.ts';
import { registerUserRoutes } from '../routes/users.ts';
import { installAuth, openToEveryone } from './auth.ts';
import { AppError, errorBodySchema, installErrorHandler } from './errors.ts';
import { requestLogFields } from './log-redaction.ts';
import { installReadAfter } from './read-after.ts';
import { apiReferenceContentSecurityPolicy, installSecurityHeaders } from './security-headers.ts';

/**
 * Whether a request target lies under /api however it is spelled (absolute
 * form, escapes, doubled slashes, any case): a mistyped API call answers a
 * 404, not the web app's page with 200.
 */
function namesTheApi(target: string): boolean {
  const pathname = target.startsWith('/') ? target.split('?')[0] : URL.parse(target)?.pathname;
  try {
    return /^\/api(\/|$)/i.test(decodeURIComponent(pathname ?? '/').replace(/\/{2,}/g, '/'));
  } catch {
    return true; // A malformed escape names no page of the web app either.
  }
}

export interface AppOptions {
  config: Config;
  database: Database;
  /** pino options or false; tests pass false (or a stream to read the log). */
  logger?: boolean | { level: string; stream?: NodeJS.WritableStream };
}

/** Builds the HTTP application: API, OpenAPI document and reference, and the web build when present. */
export async function buildApp({ config, database, logger }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      logger === false
        ? false
        : {
            ...(typeof logger === 'object' ? logger : { level: config.logLevel }),
            serializers: { req: requestLogFields },
          },
    // A line per request only when asked (LOG_REQUESTS, or LOG_LEVEL debug): at info the log holds starts,
    // warnings and errors, not megabytes of requests an hour.
    logController: new LogController({ disableRequestLogging: !config.logRequests }),
    bodyLimit: config.maxBodyBytes,
    routerOptions: { maxParamLength: 200 },
    genReqId: () => crypto.randomUUID(),
    // Errors the framework meets before any route (a malformed `%` escape in
    // the path) answer in the same shape as every other error.
    frameworkErrors: (_error, _request, reply) => {
      (reply as FastifyReply)
        .code(400)
        .send(new AppError(400, 'bad_request', 'The address of the request is not valid').toBody());
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  // Responses are built by the database as JSON text or are small objects; the
  // response schemas document them in OpenAPI without re-validating each row.
  app.setSerializerCompiler(() => (data) => (typeof data === 'string' ? data : JSON.stringify(data)));
  installErrorHandler(app, mapDatabaseError);
  installSecurityHeaders(app, config);

  installAuth(app, database, config);
  installReadAfter(app, database);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Data Platform API',
        version: '1',
        description:
          'Companies, funds, firms, contacts, deals, investors and their links, notes and files. Sign in with POST /api/v1/auth/login and send `Authorization: Bearer <accessToken>`.\n\nWith a read replica (DATABASE_READ_URL), lists, totals, aggregates, search and exports may read it. Each write answers a `Read-After` header (a database position); send the highest one you received back as `Read-After` with later requests to read your own writes. Without it a list may lag your writes by a fraction of a second.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  // The reference is public, in a scope of its own so that the opening reaches none of our routes.
  await app.register(async (reference) => {
    openToEveryone(reference);
    await reference.register(fastifySwaggerUi, {
      routePrefix: '/api/docs',
      staticCSP: apiReferenceContentSecurityPolicy,
    });
  });

  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/api/openapi.json', { schema: { hide: true }, config: { public: true } }, async () => app.swagger());
  api.get(
    '/api/health',
    {
      schema: {
        tags: ['System'],
        summary: 'Readiness: the database in use answers (503 database_unavailable when it cannot be reached)',
        response: {
          200: z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) }),
          503: errorBodySchema,
        },
      },
      config: { public: true },
    },
    async () => {
      await database.ping();
      return { status: 'ok' as const, database: database.kind };
    },
  );

  const mailer = await createMailer(config, database, app.log);
  app.addHook('onClose', async () => mailer.close());
  registerCrudRoutes(app, database, config.dataDir);
  registerDuplicateRoutes(app, database);
  registerRelationTotalRoutes(app, database);
  await registerFileRoutes(app, database, config);
  registerImportRoutes(app, database, config);
  registerExportJobRoutes(app, database, config);
  const commands = { database, config, mailer };
  registerAuthRoutes(app, commands);
  registerUserRoutes(app, commands);
  registerRoleRoutes(app, commands);
  registerSummaryRoutes(app, database);
  registerActivityRoutes(app, database);
  registerHistoryRoutes(app, database, config.dataDir);
  registerSavedViewRoutes(app, database);
  registerAnalyticsRoutes(app, database);
  registerSearchRoutes(app, database);

  const webDir = existsSync(path.join(config.webDir, 'index.html')) ? config.webDir : undefined;
  // The web build's files are public, in a scope of their own like the reference. The not-found handler is set
  // there for `reply.sendFile`; the authentication step lets it through (no route matched): it answers the web
  // app's page or a 404, never data, whatever the path.
  await app.register(async (web) => {
    openToEveryone(web);
    if (webDir) await web.register(fastifyStatic, { root: webDir, wildcard: false });
    web.setNotFoundHandler((request, reply) => {
      // The web app routes in the browser: any other page gets its index.html.
      if (webDir && request.method === 'GET' && !namesTheApi(request.url)) return reply.sendFile('index.html');
      const error = new AppError(404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}`);
      return reply.code(404).send(error.toBody());
    });
  });
  return app;
}
