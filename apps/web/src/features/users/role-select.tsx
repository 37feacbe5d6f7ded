import { Select, type SelectProps } from '@mantine/core';
import { useCallback } from 'react';
import { type Control, Controller, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../store/hooks.ts';
import { useRoleText } from './role-names.ts';
import { type RoleRow, useRolesQuery } from './users-api.ts';

/** True when the signed-in user holds every permission of the role (the API refuses to give it otherwise). */
export function useCanGrant(): (role: RoleRow) => boolean {
  const granted = useAppSelector((state) => state.auth.currentUser?.user.role?.permissions);
  // Stable while the user's permissions are, so that lists can memoise on it.
  return useCallback(
    (role: RoleRow) => role.permissions.every((permission) => (granted ?? []).includes(permission)),
    [granted],
  );
}

/** The role picker: every role, those the user cannot give disabled; the value is the role's id. */
export function RoleSelect({
  value,
  onChange,
  ...props
}: Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
  value: number | undefined;
  onChange: (roleId: number | undefined) => void;
}) {
  const { t } = useTranslation('users');
  const { data: roles = [], isLoading } = useRolesQuery();
  const canGrant = useCanGrant();
  const roleText = useRoleText();
  return (
    <Select
      label={t('fields.role')}
      placeholder={isLoading ? t('roles.loading') : t('fields.pickRole')}
      data={roles.map((role) => ({
        value: String(role.id),
        label: canGrant(role) ? roleText.name(role) : t('fields.roleNotYours', { name: roleText.name(role) }),
        disabled: !canGrant(role),
      }))}
      value={value === undefined ? null : String(value)}
      onChange={(next) => onChange(next ? Number(next) : undefined)}
      allowDeselect={false}
      comboboxProps={{ withinPortal: false }}
      {...props}
    />
  );
}

/** The role picker bound to a form's `roleId`, with its error under it. */
export function RoleField<Form extends { roleId?: number }>({
  control,
  required,
}: {
  control: Control<Form>;
  required?: boolean;
}) {
  return (
    <Controller
      control={control}
      name={'roleId' as Path<Form>}
      render={({ field, fieldState }) => (
        <RoleSelect
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          name={field.name}
          required={required}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}
