import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { notify } from '../../entity/toasts.ts';
import { failureMessage } from '../../i18n/failure-message.ts';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';
import { endSession, login } from '../../store/auth-slice.ts';
import { useAppDispatch, useAppSelector } from '../../store/hooks.ts';
import { useCheckedForm } from './form-rules.ts';
import { PasswordField } from './password-field.tsx';
import type { SignInState } from './use-sign-out.ts';

/** Only paths of this site, so that a crafted link cannot send the user elsewhere after sign-in. */
export function safeRedirect(target: string | null): string | undefined {
  return target?.startsWith('/') && !target.startsWith('//') && !target.startsWith('/\\') ? target : undefined;
}

export function SignInPage() {
  const { t, i18n } = useTranslation(['auth', 'common']);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const localized = useLocalizedPath();
  const [params] = useSearchParams();
  const loading = useAppSelector((state) => state.auth.loading);
  const [failure, setFailure] = useState<string | null>(null);
  const signingOut = (useLocation().state as SignInState | null)?.signOut === true;
  const held = useAppSelector((state) => state.auth.token);

  // Reached through "Sign out": end the session now that the signed-in screens are gone.
  useEffect(() => {
    if (!signingOut || !held) return;
    void dispatch(endSession());
    notify((toast) => toast.info(t('signedOut'), { toastId: 'signed-out' }));
  }, [signingOut, held, dispatch, t]);

  const { errors, onSubmit } = useCheckedForm({ email: 'email', password: 'required' }, async (values) => {
    setFailure(null);
    const result = await dispatch(login({ email: values.email ?? '', password: values.password ?? '' }));
    if (login.fulfilled.match(result)) {
      await navigate(safeRedirect(params.get('redirect')) ?? localized('/'), { replace: true });
      return undefined;
    }
    // Said here only: the notifications leave a failed sign-in to this form.
    setFailure(result.payload ? failureMessage(result.payload, t, i18n.resolvedLanguage) : t('errors:unexpected'));
    return result.payload;
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="sign-in-title">
      <Stack gap="md">
        <Title order={1} size="h2" id="sign-in-title">
          {t('signIn.title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('signIn.intro')}
        </Text>
        <TextInput
          name="email"
          type="email"
          label={t('fields.email')}
          autoComplete="username"
          required
          error={errors.email}
          autoFocus
        />
        <PasswordField
          name="password"
          label={t('fields.password')}
          autoComplete="current-password"
          required
          error={errors.password}
        />
        {failure ? (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        ) : null}
        <Button type="submit" loading={loading} fullWidth>
          {t('signIn.submit')}
        </Button>
        <Anchor component={Link} to={localized('/forgot-password')} size="sm">
          {t('common:actions.forgotPassword')}
        </Anchor>
        <Text size="sm">
          {t('signIn.noAccount')}{' '}
          <Anchor component={Link} to={localized('/register')}>
            {t('signIn.requestAccess')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
