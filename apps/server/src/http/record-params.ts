import { z } from 'zod';
import { AppError } from './errors.ts';

/** `:id` in a path: a positive whole number a bigint id can hold. */
export const idParamsSchema = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/**
 * The version an `If-Match` header names: `3`, `"3"` or `W/"3"`. Missing when
 * `required` answers 428 (the client must say which version it changes).
 */
export function versionFromIfMatch(header: string | undefined, required: boolean): number | undefined {
  if (header === undefined || header === '') {
    if (!required) return undefined;
    throw new AppError(428, 'precondition_required', 'Send If-Match with the version you last read', {
      'if-match': 'Required',
    });
  }
  const m = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!m)
    throw new AppError(400, 'validation_failed', 'If-Match must be a version number', {
      'if-match': 'Expected a version number',
    });
  return Number(m[1]);
}
