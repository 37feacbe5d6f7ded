import { emailSchema, MIN_PASSWORD_LENGTH, passwordSchema } from '@data-platform/shared/auth/password-policy';
import type { TFunction } from 'i18next';
import { type FormEvent, useState } from 'react';
import { isApiFailure } from '../../store/http.ts';

export type Rule = 'required' | 'email' | 'password';

/** The form's values as text, by input name. */
export function formValues(event: FormEvent<HTMLFormElement>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of new FormData(event.currentTarget)) if (typeof value === 'string') values[name] = value;
  return values;
}

/**
 * Checks values with the same schemas the server applies (email, password
 * policy), in the interface's language. Answers a message per failing field.
 */
export function check(
  values: Record<string, string>,
  rules: Record<string, Rule>,
  t: TFunction<'auth'>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [field, rule] of Object.entries(rules)) {
    const value = values[field] ?? '';
    if (value.trim() === '') errors[field] = t('validation.required');
    else if (rule === 'email' && !emailSchema.safeParse(value).success) errors[field] = t('validation.email');
    else if (rule === 'password' && !passwordSchema.safeParse(value).success) {
      errors[field] = t('validation.passwordLength', { min: MIN_PASSWORD_LENGTH });
    }
  }
  return errors;
}

/** Field messages shown under inputs: from checks before sending, or from the server's answer. */
export function useFieldErrors() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  return {
    errors,
    setErrors,
    /** Keeps the server's field messages; true when there were any. */
    fromFailure(failure: unknown): void {
      setErrors(isApiFailure(failure) ? (failure.fields ?? {}) : {});
    },
  };
}

export { MIN_PASSWORD_LENGTH };
