import { Alert, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useForgotPasswordMutation } from '../../store/api.ts';
import { BackToSignIn } from './back-to-sign-in.tsx';
import { check, formValues, useFieldErrors } from './form-rules.ts';

export function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const [send, { isLoading, isSuccess }] = useForgotPasswordMutation();
  const { errors, setErrors, fromFailure } = useFieldErrors();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = formValues(event);
    const found = check(values, { email: 'email' }, t);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const result = await send({ email: values.email ?? '' });
    if (result.error) fromFailure(result.error);
  };

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
        <form onSubmit={submit} noValidate>
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
