import { MIN_PASSWORD_LENGTH } from '@data-platform/shared/auth/password-length';
import type { TFunction } from 'i18next';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiFailure } from '../../store/http.ts';

/** `repeat`: the same text as the `password` field. */
export type Rule = 'required' | 'email' | 'password' | 'repeat';

/**
 * Checks values with the same schemas the server applies (email, password
 * policy), in the interface's language. Answers a message per failing field.
 * The schemas (and zod) load with the first check, not with the screen: the
 * sign-in screen's JavaScript is budgeted (issue #11).
 */
export async function check(
  values: Record<string, string>,
  rules: Record<string, Rule>,
  t: TFunction<'auth'>,
): Promise<Record<string, string>> {
  const { emailSchema, passwordSchema } = await import('@data-platform/shared/auth/password-policy');
  const errors: Record<string, string> = {};
  for (const [field, rule] of Object.entries(rules)) {
    const value = values[field] ?? '';
    if (value.trim() === '') errors[field] = t('validation.required');
    else if (rule === 'email' && !emailSchema.safeParse(value).success) errors[field] = t('validation.email');
    else if (rule === 'password' && !passwordSchema.safeParse(value).success) {
      errors[field] = t('validation.passwordLength', { min: MIN_PASSWORD_LENGTH });
    } else if (rule === 'repeat' && value !== values.password) errors[field] = t('validation.mismatch');
  }
  return errors;
}

/**
 * A form checked before it is sent: `send` gets the values once every rule
 * holds and answers the call's failure, if any, whose field messages then
 * show under the inputs.
 */
export function useCheckedForm(
  rules: Record<string, Rule>,
  send: (values: Record<string, string>, form: HTMLFormElement) => Promise<unknown>,
) {
  const { t } = useTranslation('auth');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const values: Record<string, string> = {};
    for (const [name, value] of new FormData(form)) if (typeof value === 'string') values[name] = value;
    const found = await check(values, rules, t);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const failure = await send(values, form);
    setErrors(isApiFailure(failure) ? (failure.fields ?? {}) : {});
  };
  return { errors, onSubmit };
}

export { MIN_PASSWORD_LENGTH };
