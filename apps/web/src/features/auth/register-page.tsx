import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { notify } from '../../entity/toasts.ts';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';
import { useAcceptInvitationMutation, useRequestAccessMutation } from '../../store/api.ts';
import { endSession, loginWithTokenParam } from '../../store/auth-slice.ts';
import { useAppDispatch, useAppSelector } from '../../store/hooks.ts';
import { BackToSignIn } from './back-to-sign-in.tsx';
import { MIN_PASSWORD_LENGTH, type Rule, useCheckedForm } from './form-rules.ts';
import { PasswordField } from './password-field.tsx';

const personRules: Record<string, Rule> = { firstName: 'required', lastName: 'required', password: 'password' };
const person = (values: Record<string, string>) => ({
  firstName: values.firstName ?? '',
  lastName: values.lastName ?? '',
  password: values.password ?? '',
});

function PersonFields({ errors }: { errors: Record<string, string> }) {
  const { t } = useTranslation('auth');
  return (
    <>
      <TextInput
        name="firstName"
        label={t('fields.firstName')}
        autoComplete="given-name"
        required
        error={errors.firstName}
      />
      <TextInput
        name="lastName"
        label={t('fields.lastName')}
        autoComplete="family-name"
        required
        error={errors.lastName}
      />
      <PasswordField
        name="password"
        label={t('fields.password')}
        description={t('passwordHint', { min: MIN_PASSWORD_LENGTH })}
        autoComplete="new-password"
        required
        error={errors.password}
      />
    </>
  );
}

/** `/register?token=...`: the invited person chooses a name and password, and is signed in. */
function InvitationForm({ token }: { token: string }) {
  const { t } = useTranslation('auth');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const localized = useLocalizedPath();
  const [accept, { isLoading }] = useAcceptInvitationMutation();
  const { errors, onSubmit } = useCheckedForm(personRules, async (values) => {
    const result = await accept({ token, ...person(values) });
    if (result.error) return result.error;
    dispatch(loginWithTokenParam(result.data.accessToken));
    notify((toast) => toast.success(t('invitation.welcome', { name: result.data.user.fullName })));
    await navigate(localized('/'), { replace: true });
    return undefined;
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('invitation.title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('invitation.intro')}
        </Text>
        <PersonFields errors={errors} />
        {errors.token ? (
          <Alert color="red" role="alert">
            {errors.token}
          </Alert>
        ) : null}
        <Button type="submit" loading={isLoading} fullWidth>
          {t('invitation.submit')}
        </Button>
      </Stack>
    </form>
  );
}

/** `/register` without a token: ask an administrator for an account. */
function AccessRequestForm() {
  const { t } = useTranslation('auth');
  const localized = useLocalizedPath();
  const [request, { isLoading, isSuccess }] = useRequestAccessMutation();
  const { errors, onSubmit } = useCheckedForm(
    { email: 'email', ...personRules },
    async (values) => (await request({ email: values.email ?? '', ...person(values) })).error,
  );

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('register.title')}
      </Title>
      {isSuccess ? (
        <Alert color="green" role="status">
          {t('register.done')}
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <Text c="dimmed" size="sm">
              {t('register.intro')}
            </Text>
            <TextInput
              name="email"
              type="email"
              label={t('fields.email')}
              autoComplete="email"
              required
              error={errors.email}
            />
            <PersonFields errors={errors} />
            <Button type="submit" loading={isLoading} fullWidth>
              {t('register.submit')}
            </Button>
            <Text size="sm">
              {t('register.haveAccount')}{' '}
              <Anchor component={Link} to={localized('/sign-in')}>
                {t('signIn.submit')}
              </Anchor>
            </Text>
          </Stack>
        </form>
      )}
      <BackToSignIn />
    </Stack>
  );
}

/**
 * Access requests and invitations. An invitation link opened while another
 * session is held (one not started through such a link) signs that session out first.
 */
export function RegisterPage() {
  const [params] = useSearchParams();
  const invitation = params.get('token');
  const held = useAppSelector((state) => state.auth.token);
  const byParam = useAppSelector((state) => state.auth.tokenParamLogin);
  const dispatch = useAppDispatch();
  const stale = Boolean(held && invitation && !byParam);

  useEffect(() => {
    if (stale) void dispatch(endSession());
  }, [stale, dispatch]);

  if (stale) return null;
  return invitation ? <InvitationForm token={invitation} /> : <AccessRequestForm />;
}
