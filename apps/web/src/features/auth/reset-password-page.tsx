import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { notify } from '../../entity/toasts.ts';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';
import { useResetPasswordMutation } from '../../store/api.ts';
import { BackToSignIn } from './back-to-sign-in.tsx';
import { useCheckedForm } from './form-rules.ts';
import { NewPasswordFields, newPasswordRules } from './new-password-fields.tsx';

/** Reached from the mailed link `/reset-password?token=...`. */
export function ResetPasswordPage() {
  const { t } = useTranslation(['auth', 'common']);
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const localized = useLocalizedPath();
  const [reset, { isLoading }] = useResetPasswordMutation();
  const { errors, onSubmit } = useCheckedForm(newPasswordRules, async (values) => {
    const result = await reset({ token: token ?? '', password: values.password ?? '' });
    if (result.error) return result.error;
    notify((toast) => toast.success(t('reset.done')));
    await navigate(localized('/sign-in'), { replace: true });
    return undefined;
  });

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('reset.title')}
      </Title>
      {token ? (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <Text c="dimmed" size="sm">
              {t('reset.intro')}
            </Text>
            <NewPasswordFields errors={errors} />
            {errors.token ? (
              <Alert color="red" role="alert">
                {errors.token}
              </Alert>
            ) : null}
            <Button type="submit" loading={isLoading} fullWidth>
              {t('reset.submit')}
            </Button>
          </Stack>
        </form>
      ) : (
        <Alert color="orange" role="alert">
          {t('reset.missingToken')}{' '}
          <Anchor component={Link} to={localized('/forgot-password')}>
            {t('common:actions.forgotPassword')}
          </Anchor>
        </Alert>
      )}
      <BackToSignIn />
    </Stack>
  );
}
