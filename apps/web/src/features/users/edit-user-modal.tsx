import { switchableUserStatuses, type UserChanges, userChangesSchema } from '@data-platform/shared/auth/user-schemas';
import { users } from '@data-platform/shared/entities/users';
import { Alert, Button, Group, Loader, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { FormButtons } from '../../entity/form-buttons.tsx';
import { useRecordQuery } from '../../entity/record-api.ts';
import { referenceJoins } from '../../entity/record-values.ts';
import { isApiFailure } from '../../store/http.ts';
import type { Row } from '../../store/resource-slices.ts';
import { RoleField } from './role-select.tsx';
import { useUpdateUserMutation } from './users-api.ts';

interface UserForm {
  firstName: string;
  lastName: string;
  roleId: number | undefined;
  status: string;
}

const switchable = (status: unknown) => (switchableUserStatuses as readonly unknown[]).includes(status);

function formOf(user: Row | undefined): UserForm {
  return {
    firstName: String(user?.firstName ?? ''),
    lastName: String(user?.lastName ?? ''),
    roleId: user?.roleId ? Number(user.roleId) : undefined,
    status: String(user?.status ?? ''),
  };
}

/** Only what the user changed goes to the API (an invited user has no name yet, and keeps none). */
function changesOf(before: UserForm, after: UserForm): UserChanges {
  const changes: Record<string, unknown> = {};
  if (after.firstName.trim() !== before.firstName) changes.firstName = after.firstName;
  if (after.lastName.trim() !== before.lastName) changes.lastName = after.lastName;
  if (after.roleId !== before.roleId) changes.roleId = after.roleId;
  if (after.status !== before.status && switchable(after.status)) changes.status = after.status;
  return changes as UserChanges;
}

/** Edit a user in a modal: name, role and status (active or disabled); a stale save says so. */
export function EditUserModal({ id, onClose }: { id: number; onClose: () => void }) {
  const { t } = useTranslation(['users', 'common', 'record', 'options']);
  const join = useMemo(() => referenceJoins(users), []);
  const { data: user, error, isLoading, isFetching, refetch } = useRecordQuery({ resource: 'users', id, join });
  const [update, updating] = useUpdateUserMutation();
  const base = useMemo(() => formOf(user), [user]);
  const form = useForm<UserForm>({ defaultValues: base });
  useEffect(() => form.reset(base), [form, base]);
  // Set by a 412; cleared once the newer version of the user has arrived.
  const [stale, setStale] = useState(false);
  const version = user?.version;
  useEffect(() => {
    if (version !== undefined) setStale(false);
  }, [version]);

  const onSubmit = form.handleSubmit(async (values) => {
    if (!user) return;
    const body = changesOf(base, values);
    const checked = userChangesSchema.safeParse(body);
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        form.setError(String(issue.path[0]) as keyof UserForm, { type: 'client', message: issue.message });
      }
      return;
    }
    if (Object.keys(body).length === 0) {
      onClose();
      return;
    }
    const result = await update({ id, version: Number(user.version), body });
    if ('error' in result) {
      const failure = result.error;
      if (!isApiFailure(failure)) return;
      if (failure.status === 412) setStale(true);
      for (const [name, message] of Object.entries(failure.fields ?? {})) {
        form.setError(name as keyof UserForm, { type: 'server', message });
      }
      return;
    }
    toast.success(t('edit.saved', { name: String(result.data.fullName ?? result.data.email) }));
    onClose();
  });

  const title = t('edit.title', { name: String(user?.fullName ?? user?.email ?? '') });
  return (
    <Modal closeButtonProps={{ 'aria-label': t('record:dialog.close') }} opened onClose={onClose} title={title}>
      {isLoading ? <Loader size="sm" role="status" aria-label={t('common:list.loading')} /> : null}
      {!isLoading && !user ? (
        <Alert color="red" role="alert">
          {isApiFailure(error) ? error.message : t('record:show.missing')}
        </Alert>
      ) : null}
      {user ? (
        <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label={title}>
          <Stack>
            <Text size="sm" c="dimmed">
              {String(user.email)}
            </Text>
            {stale ? (
              <Alert color="yellow" role="alert" title={t('edit.staleTitle')}>
                <Stack gap="xs">
                  <Text size="sm">{t('edit.stale')}</Text>
                  <Group>
                    <Button size="xs" variant="light" loading={isFetching} onClick={() => void refetch()}>
                      {t('edit.reload')}
                    </Button>
                  </Group>
                </Stack>
              </Alert>
            ) : null}
            <Group grow align="flex-start">
              <TextInput
                {...form.register('firstName')}
                label={t('fields.firstName')}
                error={form.formState.errors.firstName?.message}
                data-autofocus
              />
              <TextInput
                {...form.register('lastName')}
                label={t('fields.lastName')}
                error={form.formState.errors.lastName?.message}
              />
            </Group>
            <RoleField control={form.control} />
            {switchable(user.status) ? (
              <Controller
                control={form.control}
                name="status"
                render={({ field }) => (
                  <Stack gap={4}>
                    <Text size="sm" fw={500} id="user-status-label">
                      {t('fields.status')}
                    </Text>
                    <SegmentedControl
                      aria-labelledby="user-status-label"
                      value={field.value}
                      onChange={field.onChange}
                      data={switchableUserStatuses.map((status) => ({
                        value: status,
                        label: t(`status.${status}`),
                      }))}
                    />
                    {field.value === 'disabled' && base.status !== 'disabled' ? (
                      <Text size="xs" c="dimmed">
                        {t('edit.disableHint')}
                      </Text>
                    ) : null}
                  </Stack>
                )}
              />
            ) : (
              <Text size="sm">
                {t('fields.status')}: {t(`status.${String(user.status)}`)}
              </Text>
            )}
            {updating.error && isApiFailure(updating.error) && updating.error.status === 409 ? (
              <Alert color="red" role="alert">
                {updating.error.message}
              </Alert>
            ) : null}
            <FormButtons
              submitLabel={t('common:actions.save')}
              onCancel={onClose}
              working={updating.isLoading}
              disabled={stale}
            />
          </Stack>
        </form>
      ) : null}
    </Modal>
  );
}
