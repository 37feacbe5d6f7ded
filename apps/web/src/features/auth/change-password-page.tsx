import { Button, Container, Stack, Text, Title } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useChangePasswordMutation } from '../../store/api.ts';
import { check, formValues, useFieldErrors } from './form-rules.ts';
import { checkRepeated, NewPasswordFields } from './new-password-fields.tsx';
import { PasswordField } from './password-field.tsx';

export function ChangePasswordPage() {
  const { t } = useTranslation('auth');
  const [change, { isLoading }] = useChangePasswordMutation();
  const { errors, setErrors, fromFailure } = useFieldErrors();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const values = formValues(event);
    const found = checkRepeated(
      values,
      check(values, { currentPassword: 'required', password: 'password', confirmPassword: 'required' }, t),
      t('validation.mismatch'),
    );
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const result = await change({ currentPassword: values.currentPassword ?? '', password: values.password ?? '' });
    if (result.error) {
      fromFailure(result.error);
      return;
    }
    form.reset();
    toast.success(t('changePassword.done'));
  };

  return (
    <Container size="xs" px={0}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Title order={1} size="h2">
            {t('changePassword.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('changePassword.intro')}
          </Text>
          <PasswordField
            name="currentPassword"
            label={t('fields.currentPassword')}
            autoComplete="current-password"
            required
            error={errors.currentPassword}
          />
          <NewPasswordFields errors={errors} />
          <Button type="submit" loading={isLoading}>
            {t('changePassword.submit')}
          </Button>
        </Stack>
      </form>
    </Container>
  );
}
