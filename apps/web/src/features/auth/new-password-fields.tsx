import { useTranslation } from 'react-i18next';
import { MIN_PASSWORD_LENGTH } from './form-rules.ts';
import { PasswordField } from './password-field.tsx';

/** A new password and its repetition, with the policy as a hint. */
export function NewPasswordFields({ errors }: { errors: Record<string, string> }) {
  const { t } = useTranslation('auth');
  return (
    <>
      <PasswordField
        name="password"
        label={t('fields.newPassword')}
        description={t('passwordHint', { min: MIN_PASSWORD_LENGTH })}
        autoComplete="new-password"
        required
        error={errors.password}
      />
      <PasswordField
        name="confirmPassword"
        label={t('fields.confirmPassword')}
        autoComplete="new-password"
        required
        error={errors.confirmPassword}
      />
    </>
  );
}

/** Adds a message when the repetition differs. */
export function checkRepeated(
  values: Record<string, string>,
  errors: Record<string, string>,
  mismatch: string,
): Record<string, string> {
  if (!errors.password && !errors.confirmPassword && values.password !== values.confirmPassword) {
    return { ...errors, confirmPassword: mismatch };
  }
  return errors;
}
