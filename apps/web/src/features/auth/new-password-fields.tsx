import { useTranslation } from 'react-i18next';
import { MIN_PASSWORD_LENGTH, type Rule } from './form-rules.ts';
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

/** The rules of the two fields: the password policy, and the same text twice. */
export const newPasswordRules: Record<string, Rule> = { password: 'password', confirmPassword: 'repeat' };
