import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './password-length.ts';

/** Length only, no composition rules (NIST SP 800-63B); the server also refuses common passwords. */
export const passwordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `At least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `At most ${MAX_PASSWORD_LENGTH} characters`);

export const emailSchema = z.email({ error: 'Expected an email address' }).max(320).toLowerCase();
