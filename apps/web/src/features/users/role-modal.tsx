import { createSchema, updateSchema } from '@data-platform/shared/entities/record-schema';
import { roles } from '@data-platform/shared/entities/roles';
import {
  adminPermissions,
  dataActions,
  type Permission,
  type PermissionResource,
  permissionResources,
} from '@data-platform/shared/permissions';
import { Alert, Button, Checkbox, Group, Modal, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useAppSelector } from '../../store/hooks.ts';
import { isApiFailure } from '../../store/http.ts';
import { useRoleText } from './role-names.ts';
import { type RoleBody, type RoleRow, useCreateRoleMutation, useUpdateRoleMutation } from './users-api.ts';

type Errors = Partial<Record<keyof RoleBody, string>>;

/** The permission matrix's name of a data resource. */
export function usePermissionResourceLabel(): (resource: PermissionResource) => string {
  const { t } = useTranslation(['entities']);
  return (resource) => t(`entities:resources.${resource}.other`);
}

/** Managing users means seeing their accounts (the API refuses one without the other). */
function withImplied(permissions: Permission[], on: boolean): Permission[] {
  if (on && permissions.includes('users:manage')) return [...permissions, 'users:read'];
  if (!on && permissions.includes('users:read')) return [...permissions, 'users:manage'];
  return permissions;
}

/**
 * Create or edit a role: its name, description, and the permission matrix
 * (each data resource × read/create/update/delete/import/export, then the
 * administration rights). A built-in role is only shown.
 */
export function RoleModal({ role, onClose }: { role?: RoleRow; onClose: () => void }) {
  const { t } = useTranslation(['users', 'common', 'record']);
  const resourceLabel = usePermissionResourceLabel();
  const roleText = useRoleText();
  // A built-in role is only shown, in the interface's language; the others are edited as written.
  const [name, setName] = useState(role ? roleText.name(role) : '');
  const [description, setDescription] = useState(role ? roleText.description(role) : '');
  const [granted, setGranted] = useState<Set<Permission>>(new Set(role?.permissions ?? []));
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string>();
  const [create, creating] = useCreateRoleMutation();
  const [update, updating] = useUpdateRoleMutation();
  const mine = useAppSelector((state) => state.auth.currentUser?.user.role?.permissions) ?? [];
  const held = (permission: Permission) => mine.includes(permission);
  // The API refuses to put in a role what the editor does not hold, or to change a role wider than them.
  const builtIn = role?.builtIn === true;
  const readOnly = builtIn || (role !== undefined && !role.permissions.every(held));

  const toggle = (permissions: Permission[], on: boolean) =>
    setGranted((current) => {
      const next = new Set(current);
      for (const permission of permissions.filter(held)) {
        if (on) next.add(permission);
        else next.delete(permission);
      }
      return next;
    });
  const rowOf = (resource: PermissionResource) => dataActions.map((action) => `${resource}:${action}` as Permission);
  const columnOf = (action: (typeof dataActions)[number]) =>
    permissionResources.map((resource) => `${resource}:${action}` as Permission);
  const state = (permissions: Permission[]) => {
    const held = permissions.filter((p) => granted.has(p)).length;
    return { checked: held === permissions.length, indeterminate: held > 0 && held < permissions.length };
  };

  const save = async () => {
    const body: RoleBody = {
      name: name.trim(),
      description: description.trim() || null,
      permissions: [...granted].sort(),
    };
    const checked = (role ? updateSchema(roles) : createSchema(roles)).safeParse(body);
    if (!checked.success) {
      setErrors(
        Object.fromEntries(checked.error.issues.map((issue) => [String(issue.path[0]), issue.message])) as Errors,
      );
      return;
    }
    setErrors({});
    setFailure(undefined);
    const result = role ? await update({ id: role.id, version: role.version, body }) : await create(body);
    if ('error' in result) {
      const error = result.error;
      if (!isApiFailure(error)) return;
      if (error.fields) setErrors(error.fields as Errors);
      setFailure(error.status === 412 ? t('roles.stale') : error.message);
      return;
    }
    toast.success(t(role ? 'roles.saved' : 'roles.created', { name: body.name }));
    onClose();
  };

  const title = readOnly
    ? t('roles.builtInTitle', { name: role ? roleText.name(role) : '' })
    : role
      ? t('roles.editTitle', { name: role.name })
      : t('roles.createTitle');

  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('record:dialog.close') }}
      opened
      onClose={onClose}
      title={title}
      size="xl"
    >
      <form
        aria-label={title}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!readOnly) void save();
        }}
      >
        <Stack>
          {readOnly ? (
            <Alert color="blue" role="status">
              {builtIn ? t('roles.builtInHint') : t('roles.beyondHint')}
            </Alert>
          ) : null}
          <TextInput
            label={t('fields.roleName')}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={errors.name}
            required
            readOnly={readOnly}
            data-autofocus
          />
          <Textarea
            label={t('fields.description')}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            error={errors.description}
            readOnly={readOnly}
            autosize
            minRows={2}
          />
          <Table withTableBorder verticalSpacing={4} data-testid="permission-matrix">
            <Table.Caption>{t('matrix.caption')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('matrix.data')}</Table.Th>
                {dataActions.map((action) => (
                  <Table.Th key={action} scope="col" ta="center">
                    <Stack gap={2} align="center">
                      <span>{t(`matrix.actions.${action}`)}</span>
                      <Checkbox
                        size="xs"
                        aria-label={t('matrix.column', { action: t(`matrix.actions.${action}`) })}
                        disabled={readOnly}
                        {...state(columnOf(action))}
                        onChange={(event) => toggle(columnOf(action), event.currentTarget.checked)}
                      />
                    </Stack>
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {permissionResources.map((resource) => (
                <Table.Tr key={resource}>
                  <Table.Th scope="row">
                    <Checkbox
                      size="xs"
                      label={resourceLabel(resource)}
                      disabled={readOnly}
                      {...state(rowOf(resource))}
                      onChange={(event) => toggle(rowOf(resource), event.currentTarget.checked)}
                    />
                  </Table.Th>
                  {dataActions.map((action) => {
                    const permission = `${resource}:${action}` as Permission;
                    return (
                      <Table.Td key={action}>
                        <Group justify="center">
                          <Checkbox
                            size="xs"
                            aria-label={t('matrix.cell', {
                              resource: resourceLabel(resource),
                              action: t(`matrix.actions.${action}`),
                            })}
                            checked={granted.has(permission)}
                            disabled={readOnly || !held(permission)}
                            onChange={(event) => toggle([permission], event.currentTarget.checked)}
                          />
                        </Group>
                      </Table.Td>
                    );
                  })}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
            <Text component="legend" size="sm" fw={500} mb={4}>
              {t('matrix.admin.title')}
            </Text>
            <Stack gap={6}>
              {adminPermissions.map((permission) => (
                <Checkbox
                  key={permission}
                  label={t(`matrix.admin.${permission.replace(':', '_')}`)}
                  description={t(`matrix.admin.${permission.replace(':', '_')}_hint`)}
                  checked={granted.has(permission)}
                  disabled={readOnly || !held(permission)}
                  onChange={(event) =>
                    toggle(withImplied([permission], event.currentTarget.checked), event.currentTarget.checked)
                  }
                />
              ))}
            </Stack>
          </fieldset>
          {errors.permissions ? (
            <Text c="red" size="sm" role="alert">
              {errors.permissions}
            </Text>
          ) : null}
          {failure ? (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {readOnly ? t('common:actions.close') : t('common:actions.cancel')}
            </Button>
            {readOnly ? null : (
              <Button type="submit" loading={creating.isLoading || updating.isLoading}>
                {role ? t('common:actions.save') : t('common:actions.create')}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
