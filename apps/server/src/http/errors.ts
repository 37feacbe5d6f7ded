import { QueryError } from '@data-platform/shared/query/list-query';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError, type DomainErrorKind, invalid } from '../domain/errors.ts';

/** The error body every endpoint answers with. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/**
 * An error that exists only in HTTP (a header the protocol requires, a body
 * that is not JSON, a path no route has): a status, a stable code, a human
 * message and optional per-field messages and headers. Everything below the
 * routes throws a `DomainError` instead.
 */
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

/** The status each kind of domain error answers with. */
const statusByKind: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  stale: 412,
  tooLarge: 413,
  unsupportedType: 415,
  tooMany: 429,
  unavailable: 503,
};

/** A domain error as the API answers it. */
export function httpErrorOf(error: DomainError): AppError {
  const headers =
    error.retryAfterSeconds === undefined ? undefined : { 'retry-after': String(error.retryAfterSeconds) };
  return new AppError(statusByKind[error.kind], error.code, error.message, error.fields, headers);
}

/** Whether an error refused the caller (403), for the audit of refusals. */
export const isRefusal = (error: unknown) =>
  (error instanceof DomainError && error.kind === 'forbidden') || (error instanceof AppError && error.status === 403);

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
export type DatabaseErrorMapper = (error: unknown) => DomainError | undefined;

/**
 * Every error leaves as `{ error: { code, message, fields } }`. Unknown
 * errors are logged and answered with a 500 that reveals nothing.
 */
export function installErrorHandler(app: FastifyInstance, mapDatabaseError: DatabaseErrorMapper): void {
  const send = (reply: FastifyReply, error: AppError) =>
    reply
      .code(error.status)
      .headers(error.headers ?? {})
      .send(error.toBody());
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) return send(reply, err);
    if (err instanceof DomainError) return send(reply, httpErrorOf(err));
    if (err instanceof QueryError) {
      return send(reply, httpErrorOf(invalid(err.fields, 'The list parameters are not valid')));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const where = err.validationContext === 'body' ? 'body' : err.validationContext;
      const fields = issuesToFields(err.validation as unknown as ValidationIssue[]);
      const message = `The request ${where} is not valid: ${Object.entries(fields)[0]?.join(': ') ?? ''}`;
      return send(reply, httpErrorOf(invalid(fields, message)));
    }
    const mapped = mapDatabaseError(err);
    if (mapped) return send(reply, httpErrorOf(mapped));
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
