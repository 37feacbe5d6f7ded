import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { notify } from '../../entity/toasts.ts';
import { useChangePasswordMutation } from '../../store/api.ts';
import { useCheckedForm } from './form-rules.ts';
import { NewPasswordFields, newPasswordRules } from './new-password-fields.tsx';
import { PasswordField } from './password-field.tsx';

export function ChangePasswordPage() {
  const { t } = useTranslation('auth');
  const [change, { isLoading }] = useChangePasswordMutation();
  const { errors, onSubmit } = useCheckedForm(
    { currentPassword: 'required', ...newPasswordRules },
    async (values, form) => {
      const result = await change({ currentPassword: values.currentPassword ?? '', password: values.password ?? '' });
      if (result.error) return result.error;
      form.reset();
      notify((toast) => toast.success(t('changePassword.done')));
      return undefined;
    },
  );

  return (
    <Container size="xs" px={0}>
      <form onSubmit={onSubmit} noValidate>
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
