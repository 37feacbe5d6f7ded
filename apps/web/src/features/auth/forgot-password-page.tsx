import { Alert, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useForgotPasswordMutation } from '../../store/api.ts';
import { BackToSignIn } from './back-to-sign-in.tsx';
import { useCheckedForm } from './form-rules.ts';

export function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const [send, { isLoading, isSuccess }] = useForgotPasswordMutation();
  const { errors, onSubmit } = useCheckedForm(
    { email: 'email' },
    async (values) => (await send({ email: values.email ?? '' })).error,
  );

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('forgot.title')}
      </Title>
      {isSuccess ? (
        <Alert color="green" role="status">
          {t('forgot.sent')}
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <Text c="dimmed" size="sm">
              {t('forgot.intro')}
            </Text>
            <TextInput
              name="email"
              type="email"
              label={t('fields.email')}
              autoComplete="email"
              required
              error={errors.email}
              autoFocus
            />
            <Button type="submit" loading={isLoading} fullWidth>
              {t('forgot.submit')}
            </Button>
          </Stack>
        </form>
      )}
      <BackToSignIn />
    </Stack>
  );
}
