import enErrors from '@data-platform/shared/i18n/locales/en/errors.json' with { type: 'json' };
import frErrors from '@data-platform/shared/i18n/locales/fr/errors.json' with { type: 'json' };
import { QueryError } from '@data-platform/shared/query/list-query';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError, type DomainErrorKind, invalid } from '../domain/errors.ts';
import { languageOfHeader } from '../mail/request-language.ts';

/** The error body every endpoint answers with. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
    /**
     * Per field, what is wrong as a stable `code` (and its `params`), for a
     * client to say in its own language: `required`, `no_such_record`,
     * `already_used`... (the catalog's `errors:fields`), or a validation
     * issue's code (`too_small` with `minimum`...); `other` when only the message says it.
     */
    issues: z
      .record(
        z.string(),
        z.object({ code: z.string(), params: z.record(z.string(), z.union([z.string(), z.number()])).optional() }),
      )
      .optional(),
  }),
});
export type FieldIssue = { code: string; params?: Record<string, string | number> };
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

  toBody(language: ErrorLanguage = 'en', issues: Record<string, FieldIssue> = {}): ErrorBody {
    if (!this.fields) return { error: { code: this.code, message: this.message } };
    const coded = Object.fromEntries(
      Object.entries(this.fields).map(([name, message]) => [name, issues[name] ?? issueOfMessage(message)]),
    );
    const fields = Object.fromEntries(
      Object.entries(this.fields).map(([name, message]) => [name, fieldMessage(coded[name], message, language)]),
    );
    return { error: { code: this.code, message: this.message, fields, issues: coded } };
  }
}

const catalogs = { en: enErrors.fields, fr: frErrors.fields } as const;
/** The languages per-field messages are written in; the top-level `message` stays English for API users. */
export type ErrorLanguage = keyof typeof catalogs;
const errorLanguages = Object.keys(catalogs) as ErrorLanguage[];
type FieldCode = keyof typeof enErrors.fields;

/** The stable code of a per-field message the server writes in English (`Required` → `required`). */
const codeOfMessage: ReadonlyMap<string, string> = new Map(
  Object.entries(enErrors.fields).map(([code, message]) => [message, code]),
);

function issueOfMessage(message: string): FieldIssue {
  return { code: codeOfMessage.get(message) ?? 'other' };
}

/**
 * A field's message in the language asked: the catalog's (`errors:fields.<code>`),
 * else the server's English text (a rule of the field, a validation issue's
 * own words: the web app says those in its language from the field's description).
 */
function fieldMessage(issue: FieldIssue | undefined, message: string, language: ErrorLanguage): string {
  if (language === 'en' || !issue || !Object.hasOwn(catalogs[language], issue.code)) return message;
  return catalogs[language][issue.code as FieldCode];
}

/** The language a request asks its per-field messages in (Accept-Language; the web app sends its own). */
export const errorLanguageOf = (request: FastifyRequest): ErrorLanguage =>
  languageOfHeader(request.headers['accept-language'], errorLanguages) ?? 'en';

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
  params: Record<string, unknown> & { keys?: string[] };
}

/** A validation issue's code and its scalar details (`too_small` with `minimum`, `invalid_format` with `format`). */
function codedIssue(code: string, details: Record<string, unknown>): FieldIssue {
  const params = Object.fromEntries(
    Object.entries(details).filter(
      (entry): entry is [string, string | number] =>
        ['minimum', 'maximum', 'expected', 'format', 'origin'].includes(entry[0]) &&
        (typeof entry[1] === 'string' || typeof entry[1] === 'number'),
    ),
  );
  return Object.keys(params).length > 0 ? { code, params } : { code };
}

/** Per-field messages and their codes from validation issues; `a/b` paths become `a.b`, unknown keys are named. */
function issuesToFields(issues: ReadonlyArray<ValidationIssue>) {
  const fields: Record<string, string> = {};
  const coded: Record<string, FieldIssue> = {};
  for (const issue of issues) {
    const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
    if (issue.keyword === 'unrecognized_keys') {
      for (const key of issue.params.keys ?? []) {
        fields[path ? `${path}.${key}` : key] = catalogs.en.unknown_field;
        coded[path ? `${path}.${key}` : key] = { code: 'unknown_field' };
      }
      continue;
    }
    if (fields[path || 'body'] !== undefined) continue;
    fields[path || 'body'] = issue.message;
    coded[path || 'body'] = codedIssue(issue.keyword, issue.params);
  }
  return { fields, coded };
}

/**
 * Checks a body against a schema known only at request time (a record type
 * with custom fields), or a part of a multipart request (`within`: its name,
 * which then starts each field's key, `settings.mode`); answers 400 with
 * per-field messages like the route schemas do.
 */
export function validateBody<T>(schema: z.ZodType<T>, body: unknown, within?: string): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const { fields, coded } = issuesToFields(
    parsed.error.issues.map(({ code, path, message, ...details }) => ({
      keyword: code,
      instancePath: `/${[...(within ? [within] : []), ...path.map(String)].join('/')}`,
      message,
      params: details as ValidationIssue['params'],
    })),
  );
  const refused: DomainError & { issues?: Record<string, FieldIssue> } = invalid(
    fields,
    `The ${within ? `${within} part` : 'request body'} is not valid: ${Object.entries(fields)[0]?.join(': ') ?? ''}`,
  );
  refused.issues = coded;
  throw refused;
}

/** Maps a Postgres constraint violation to a client error, naming the field. */
export type DatabaseErrorMapper = (error: unknown) => DomainError | undefined;

/**
 * Every error leaves as `{ error: { code, message, fields } }`. Unknown
 * errors are logged and answered with a 500 that reveals nothing.
 */
export function installErrorHandler(app: FastifyInstance, mapDatabaseError: DatabaseErrorMapper): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    // Per-field messages in the language the request asks for (the web app sends its own), with their codes.
    const send = (_reply: FastifyReply, error: AppError, issues?: Record<string, FieldIssue>) =>
      reply
        .code(error.status)
        .headers(error.headers ?? {})
        .send(error.toBody(errorLanguageOf(request), issues));
    if (err instanceof AppError) return send(reply, err);
    // A body `validateBody` refused carries its validation issues' codes.
    if (err instanceof DomainError)
      return send(reply, httpErrorOf(err), (err as { issues?: Record<string, FieldIssue> }).issues);
    if (err instanceof QueryError) {
      return send(reply, httpErrorOf(invalid(err.fields, 'The list parameters are not valid')));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const where = err.validationContext === 'body' ? 'body' : err.validationContext;
      const { fields, coded } = issuesToFields(err.validation as unknown as ValidationIssue[]);
      const message = `The request ${where} is not valid: ${Object.entries(fields)[0]?.join(': ') ?? ''}`;
      return send(reply, httpErrorOf(invalid(fields, message)), coded);
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
