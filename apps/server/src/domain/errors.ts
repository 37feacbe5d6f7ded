/**
 * What went wrong, in the words of the domain. The data, access and command
 * layers throw these; they know nothing of HTTP. `http/errors.ts` turns each
 * kind into a status and the API's error body.
 */
export type DomainErrorKind =
  /** A value sent is not acceptable; `fields` names each field at fault. */
  | 'invalid'
  /** The caller is not signed in, or the credentials are wrong. */
  | 'unauthenticated'
  /** The caller may not do this. */
  | 'forbidden'
  /** The thing does not exist (or may not be known to exist by this caller). */
  | 'notFound'
  /** It clashes with what is stored: a unique value taken, a state that does not allow it. */
  | 'conflict'
  /** The caller changed a version that someone else has changed since. */
  | 'stale'
  /** Too big: a file, a body, too many rows. */
  | 'tooLarge'
  /** A kind of file or body that is not accepted. */
  | 'unsupportedType'
  /** Too many attempts in a short time. */
  | 'tooMany'
  /** Something the answer needs cannot be reached at the moment. */
  | 'unavailable';

/** A failure with a kind, a stable `code` clients may test, a human message and per-field messages. */
export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
    /** When trying again may succeed: how many seconds to wait first. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** The thing is not there; `why`, when given, says what the caller can do about it. */
export const notFound = (what: string, why?: string) =>
  new DomainError('notFound', 'not_found', why ? `${what} was not found: ${why}` : `${what} was not found`);

/** The actor lacks these permissions. */
export const forbidden = (missing: readonly string[]) =>
  new DomainError('forbidden', 'forbidden', `Your role does not allow this: it needs ${missing.join(', ')}`);

/** A refusal that is not a missing permission (or names more than one), said in its own words. */
export const refused = (message: string, fields?: Record<string, string>, code = 'forbidden') =>
  new DomainError('forbidden', code, message, fields);

/** A value is not acceptable; `fields` names each field at fault (none when no one field is). */
export const invalid = (fields: Record<string, string> | undefined, message = 'Some fields are not valid') =>
  new DomainError('invalid', 'validation_failed', message, fields);

export const unauthenticated = (message: string, code = 'unauthenticated') =>
  new DomainError('unauthenticated', code, message);

export const conflict = (message: string, fields?: Record<string, string>, code = 'conflict') =>
  new DomainError('conflict', code, message, fields);

/** The version the caller changed is not the stored one any more. */
export const staleVersion = (message: string, fields?: Record<string, string>) =>
  new DomainError('stale', 'stale_version', message, fields);

export const tooLarge = (message: string, fields?: Record<string, string>) =>
  new DomainError('tooLarge', 'too_large', message, fields);

export const unsupportedType = (message: string, fields?: Record<string, string>, code = 'unsupported_media_type') =>
  new DomainError('unsupportedType', code, message, fields);

export const tooMany = (retryAfterSeconds: number) =>
  new DomainError(
    'tooMany',
    'too_many_requests',
    `Too many attempts; try again in ${retryAfterSeconds} seconds`,
    undefined,
    retryAfterSeconds,
  );

export const unavailable = (code: string, message: string, retryAfterSeconds: number) =>
  new DomainError('unavailable', code, message, undefined, retryAfterSeconds);
