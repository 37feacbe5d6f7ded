import { allFields } from '@data-platform/shared/entities/entity';
import { users } from '@data-platform/shared/entities/users';
import type { Permission } from '@data-platform/shared/permissions';
import { Alert, Badge, Button, Card, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { toast } from 'react-toastify';
import { holds } from '../../entity/access.ts';
import { useFieldLabel } from '../../entity/cell-value.tsx';
import { ConfirmDelete } from '../../entity/confirm-delete.tsx';
import { DetailList } from '../../entity/detail-list.tsx';
import { FieldValue } from '../../entity/field-value.tsx';
import { useRecordQuery } from '../../entity/record-api.ts';
import { referenceJoins } from '../../entity/record-values.ts';
import { useFormat } from '../../i18n/format.ts';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';
import { useAppSelector } from '../../store/hooks.ts';
import { isApiFailure } from '../../store/http.ts';
import { EditUserModal } from './edit-user-modal.tsx';
import { useDeleteUserMutation, useUserActivityInfiniteQuery } from './users-api.ts';
import { ResendInviteButton } from './users-page.tsx';

/** The fields of a user's page, in order. */
const shownFields = ['email', 'roleId', 'status', 'lastSignInAt', 'createdAt'] as const;

const statusColors: Record<string, string> = {
  active: 'green',
  invited: 'blue',
  pending: 'yellow',
  disabled: 'gray',
  rejected: 'red',
  deleted: 'gray',
};

/** `/users/7/show`: who the user is, their role, status and last sign-in, and their recent activity. */
export function UserShowPage() {
  const { t } = useTranslation(['users', 'common', 'record', 'entities']);
  const id = Number(useParams().id);
  const label = useFieldLabel('users');
  const localized = useLocalizedPath();
  const navigate = useNavigate();
  const me = useAppSelector((state) => state.auth.currentUser?.user);
  const manages = holds(me, ['users:manage']);
  const [editing, { open: edit, close: closeEdit }] = useDisclosure(false);
  const [confirming, { open: confirm, close: cancel }] = useDisclosure(false);
  // The role's permissions too: only someone holding all of them may act on the user (the API's rule).
  const join = useMemo(
    () => [...referenceJoins(users).filter((j) => !j.startsWith('role(')), 'role(name,permissions)'],
    [],
  );
  const valid = Number.isSafeInteger(id) && id > 0;
  const { data: user, error, isLoading } = useRecordQuery({ resource: 'users', id, join }, { skip: !valid });
  const [remove, removing] = useDeleteUserMutation();

  if (isLoading) return <Loader size="sm" role="status" aria-label={t('common:list.loading')} />;
  if (!user) {
    return (
      <Alert color="red" role="alert" title={t('record:show.missingTitle')}>
        {isApiFailure(error) ? error.message : t('record:show.missing')}
      </Alert>
    );
  }

  const name = String(user.fullName ?? user.email);
  const status = String(user.status);
  const fields = allFields(users);
  const rolePermissions = ((user.role as { permissions?: Permission[] } | null)?.permissions ?? []) as Permission[];
  const changeable = manages && status !== 'deleted' && holds(me, rolePermissions);

  const onDelete = async () => {
    const result = await remove(id);
    if ('error' in result) return;
    cancel();
    toast.success(t('show.deleted', { name }));
    navigate(localized('/users'));
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <div>
          <Text c="dimmed" size="sm">
            {t('entities:resources.users.one')}
          </Text>
          <Group gap="sm" align="center">
            <Title order={1} size="h2">
              {name}
            </Title>
            <Badge color={statusColors[status] ?? 'gray'} variant="dot" size="lg" data-testid="user-status">
              {t(`status.${status}`)}
            </Badge>
          </Group>
        </div>
        {changeable ? (
          <Group gap="xs">
            {status === 'invited' ? <ResendInviteButton user={user} /> : null}
            <Button leftSection={<IconPencil size={16} aria-hidden />} onClick={edit}>
              {t('common:actions.edit')}
            </Button>
            <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} onClick={confirm}>
              {t('common:actions.delete')}
            </Button>
          </Group>
        ) : null}
      </Group>

      <Card withBorder component="section" aria-label={t('record:show.details')}>
        <DetailList
          details={shownFields.flatMap((fieldName) => {
            const field = fields[fieldName];
            if (!field) return [];
            const value: ReactNode =
              fieldName === 'status' ? (
                t(`status.${status}`)
              ) : fieldName === 'lastSignInAt' && !user.lastSignInAt ? (
                t('show.neverSignedIn')
              ) : (
                <FieldValue key={fieldName} row={user} name={fieldName} field={field} />
              );
            return [{ name: fieldName, label: label(fieldName, field), value }];
          })}
        />
      </Card>

      {manages ? <RecentActivity userId={id} /> : null}

      {editing ? <EditUserModal id={id} onClose={closeEdit} /> : null}
      <ConfirmDelete
        opened={confirming}
        title={t('show.deleteTitle', { name })}
        working={removing.isLoading}
        onConfirm={() => void onDelete()}
        onCancel={cancel}
      >
        {t('show.deleteText')}
      </ConfirmDelete>
    </Stack>
  );
}

/** The user's security events, as actor or as the one acted on, newest first. */
function RecentActivity({ userId }: { userId: number }) {
  const { t } = useTranslation(['users', 'common']);
  const format = useFormat();
  const { data, isLoading, hasNextPage, fetchNextPage, isFetchingNextPage } = useUserActivityInfiniteQuery(userId);
  const events = data?.pages.flatMap((page) => page.data) ?? [];
  const title = t('activity.title');
  return (
    <Card withBorder component="section" aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {isLoading ? <Loader size="sm" role="status" aria-label={t('common:list.loading')} /> : null}
      {!isLoading && events.length === 0 ? <Text c="dimmed">{t('activity.none')}</Text> : null}
      {events.length > 0 ? (
        <Table verticalSpacing={4} data-testid="user-activity">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('activity.when')}</Table.Th>
              <Table.Th>{t('activity.event')}</Table.Th>
              <Table.Th>{t('activity.by')}</Table.Th>
              <Table.Th>{t('activity.on')}</Table.Th>
              <Table.Th>{t('activity.address')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {events.map((event) => (
              <Table.Tr key={event.id}>
                <Table.Td>{format.dateTime(event.createdAt)}</Table.Td>
                <Table.Td>
                  {t(`events.${event.type}`, { defaultValue: event.type })}
                  {event.details ? (
                    <Text span c="dimmed" size="xs">
                      {' '}
                      ({t(`activity.details.${event.details}`, { defaultValue: event.details })})
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>{event.actor?.fullName ?? '—'}</Table.Td>
                <Table.Td>{event.targetUser?.fullName ?? '—'}</Table.Td>
                <Table.Td>{event.ip ?? '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      {hasNextPage ? (
        <Group justify="center" mt="sm">
          <Button variant="default" loading={isFetchingNextPage} onClick={() => void fetchNextPage()}>
            {t('common:actions.loadMore')}
          </Button>
        </Group>
      ) : null}
    </Card>
  );
}
