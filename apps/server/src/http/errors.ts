import { QueryError } from '@data-platform/shared/query/list-query';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** The error body every endpoint answers with. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** An error with an HTTP status, a stable code, a human message and optional per-field messages. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.fields ? { fields: this.fields } : {}) } };
  }
}

export const notFound = (what: string) => new AppError(404, 'not_found', `${what} was not found`);
export const forbidden = (missing: readonly string[]) =>
  new AppError(403, 'forbidden', `Your role does not allow this: it needs ${missing.join(', ')}`);
export const invalid = (fields: Record<string, string>, message = 'Some fields are not valid') =>
  new AppError(400, 'validation_failed', message, fields);

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message: string;
  params: { keys?: string[] };
}

/** Per-field messages from validation issues; `a/b` paths become `a.b`, unknown keys are named. */
function issuesToFields(issues: ReadonlyArray<ValidationIssue>) {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
    if (issue.keyword === 'unrecognized_keys') {
      for (const key of issue.params.keys ?? []) fields[path ? `${path}.${key}` : key] = 'Unknown field';
      continue;
    }
    fields[path || 'body'] ??= issue.message;
  }
  return fields;
}

/**
 * Checks a body against a schema known only at request time (a record type
 * with custom fields); answers 400 with per-field messages like the route
 * schemas do.
 */
export function validateBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields[path ? `${path}.${key}` : key] = 'Unknown field';
      continue;
    }
    fields[path || 'body'] ??= issue.message;
  }
  throw invalid(fields, `The request body is not valid: ${Object.entries(fields)[0]?.join(': ') ?? ''}`);
}

/** Maps a Postgres constraint violation to a client error, naming the field. */
export type DatabaseErrorMapper = (error: unknown) => AppError | undefined;

/**
 * Every error leaves as `{ error: { code, message, fields } }`. Unknown
 * errors are logged and answered with a 500 that reveals nothing.
 */
export function installErrorHandler(app: FastifyInstance, mapDatabaseError: DatabaseErrorMapper): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      return reply.code(err.status).send(err.toBody());
    }
    if (err instanceof QueryError) {
      return reply.code(400).send(invalid(err.fields, 'The list parameters are not valid').toBody());
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const where = err.validationContext === 'body' ? 'body' : err.validationContext;
      const fields = issuesToFields(err.validation as unknown as ValidationIssue[]);
      return reply
        .code(400)
        .send(
          invalid(fields, `The request ${where} is not valid: ${Object.entries(fields)[0]?.join(': ') ?? ''}`).toBody(),
        );
    }
    const mapped = mapDatabaseError(err);
    if (mapped)
      return reply
        .code(mapped.status)
        .headers(mapped.headers ?? {})
        .send(mapped.toBody());
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return reply.code(400).send(new AppError(400, 'malformed_json', 'The body is not valid JSON').toBody());
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
      return reply.code(413).send(new AppError(413, 'too_large', 'The request body is too large').toBody());
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send(new AppError(415, 'unsupported_media_type', err.message).toBody());
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply
        .code(err.statusCode)
        .send(new AppError(err.statusCode, err.code?.toLowerCase() ?? 'bad_request', err.message).toBody());
    }
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send(new AppError(500, 'internal', 'Something went wrong on our side').toBody());
  });
}
