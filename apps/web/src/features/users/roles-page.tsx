import { adminPermissions, dataPermissions } from '@data-platform/shared/permissions';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconEdit, IconEye, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { ConfirmDelete } from '../../entity/confirm-delete.tsx';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';
import { isApiFailure } from '../../store/http.ts';
import { RoleModal } from './role-modal.tsx';
import { useRoleText } from './role-names.ts';
import classes from './roles-page.module.css';
import { type RoleRow, useDeleteRoleMutation, useRolesQuery } from './users-api.ts';

/** `/roles` ("Manage roles"): the roles, each with what it allows; create, edit and delete the custom ones. */
export function RolesPage() {
  const { t } = useTranslation(['users', 'common', 'record', 'entities']);
  const localized = useLocalizedPath();
  const { data: roles = [], isLoading, error } = useRolesQuery();
  const [editing, setEditing] = useState<RoleRow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<RoleRow | null>(null);
  const [remove, removing] = useDeleteRoleMutation();
  const roleText = useRoleText();

  const onDelete = async () => {
    if (!deleting) return;
    const result = await remove(deleting.id);
    if ('error' in result) return;
    toast.success(t('roles.deleted', { name: deleting.name }));
    setDeleting(null);
  };

  const summary = (role: RoleRow) => {
    const data = role.permissions.filter((p) => dataPermissions.includes(p)).length;
    const admin = role.permissions.filter((p) => (adminPermissions as readonly string[]).includes(p));
    return [
      t('roles.dataRights', { count: data, total: dataPermissions.length }),
      ...admin.map((p) => t(`matrix.admin.${p.replace(':', '_')}`)),
    ].join(' · ');
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center">
        <div>
          <Anchor component={Link} to={localized('/users')} size="sm">
            {t('entities:resources.users.other')}
          </Anchor>
          <Title order={1} size="h2">
            {t('common:actions.manageRoles')}
          </Title>
        </div>
        <Button size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => setEditing('new')}>
          {t('common:actions.create')}
        </Button>
      </Group>
      {isLoading ? <Loader size="sm" role="status" aria-label={t('common:list.loading')} /> : null}
      {isApiFailure(error) ? (
        <Alert color="red" role="alert">
          {error.message}
        </Alert>
      ) : null}
      {roles.length > 0 ? (
        <Table.ScrollContainer minWidth={560} type="native">
          <Table striped highlightOnHover data-testid="roles-table" className={classes.table}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th className={classes.name}>{t('fields.roleName')}</Table.Th>
                <Table.Th className={classes.description}>{t('fields.description')}</Table.Th>
                <Table.Th className={classes.allows}>{t('roles.allows')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('common:list.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {roles.map((role) => (
                <Table.Tr key={role.id}>
                  <Table.Td className={classes.name}>
                    <Group gap="xs" wrap="nowrap">
                      <Text fw={500}>{roleText.name(role)}</Text>
                      {role.builtIn ? (
                        <Badge size="sm" variant="light" color="gray">
                          {t('roles.builtIn')}
                        </Badge>
                      ) : null}
                    </Group>
                  </Table.Td>
                  <Table.Td className={classes.description}>{roleText.description(role)}</Table.Td>
                  <Table.Td className={classes.allows}>
                    <Text size="sm">{summary(role)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap" justify="flex-end">
                      <ActionIcon
                        variant="subtle"
                        size="sm"
                        aria-label={t(role.builtIn ? 'roles.view' : 'roles.edit', { name: roleText.name(role) })}
                        onClick={() => setEditing(role)}
                      >
                        {role.builtIn ? <IconEye size={16} aria-hidden /> : <IconEdit size={16} aria-hidden />}
                      </ActionIcon>
                      {role.builtIn ? null : (
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          size="sm"
                          aria-label={t('roles.delete', { name: role.name })}
                          onClick={() => setDeleting(role)}
                        >
                          <IconTrash size={16} aria-hidden />
                        </ActionIcon>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {editing ? (
        <RoleModal
          key={editing === 'new' ? 'new' : editing.id}
          role={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmDelete
        opened={deleting !== null}
        title={t('roles.deleteTitle', { name: deleting?.name ?? '' })}
        working={removing.isLoading}
        onConfirm={() => void onDelete()}
        onCancel={() => setDeleting(null)}
      >
        {t('roles.deleteText')}
      </ConfirmDelete>
    </Stack>
  );
}
