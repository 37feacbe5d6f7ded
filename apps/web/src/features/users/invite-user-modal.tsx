import { type Invitation, invitationSchema } from '@data-platform/shared/auth/user-schemas';
import { Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { FormButtons } from '../../entity/form-buttons.tsx';
import { recordPath } from '../../entity/record-routes.ts';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';
import { isApiFailure } from '../../store/http.ts';
import { RoleField } from './role-select.tsx';
import { useInviteUserMutation } from './users-api.ts';

/** "Send invitation": an email and a role; the invited user's page follows. */
export function InviteUserModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation(['users', 'common', 'record']);
  const navigate = useNavigate();
  const localized = useLocalizedPath();
  const [invite, inviting] = useInviteUserMutation();
  const form = useForm<Partial<Invitation>>({ defaultValues: { email: '' } });

  const onSubmit = form.handleSubmit(async (values) => {
    // The server's own schema decides, field by field.
    const checked = invitationSchema.safeParse(values);
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        form.setError(String(issue.path[0]) as keyof Invitation, { type: 'client', message: issue.message });
      }
      return;
    }
    const body = checked.data;
    const result = await invite(body);
    if ('error' in result) {
      const failure = result.error;
      if (isApiFailure(failure)) {
        // A refusal (already invited, a role above one's own) says more than its field's short message.
        for (const [name, message] of Object.entries(failure.fields ?? {})) {
          form.setError(name as keyof Invitation, {
            type: 'server',
            message: failure.status === 400 ? message : failure.message,
          });
        }
      }
      return;
    }
    toast.success(t('invite.sent', { email: body.email }));
    navigate(localized(recordPath('users', result.data.id, 'show') ?? '/users'));
  });

  const title = t('common:actions.sendInvitation');
  return (
    <Modal closeButtonProps={{ 'aria-label': t('record:dialog.close') }} opened onClose={onClose} title={title}>
      <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label={title}>
        <Stack>
          <Text size="sm" c="dimmed">
            {t('invite.intro')}
          </Text>
          <TextInput
            {...form.register('email')}
            type="email"
            label={t('fields.email')}
            autoComplete="off"
            required
            data-autofocus
            error={form.formState.errors.email?.message}
          />
          <RoleField control={form.control} required />
          <FormButtons submitLabel={title} onCancel={onClose} working={inviting.isLoading} />
        </Stack>
      </form>
    </Modal>
  );
}
