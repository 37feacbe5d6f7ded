import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** A role as far as its shown name and description go. */
interface NamedRole {
  name: string;
  description?: string | null;
  builtIn?: boolean;
}

/**
 * A built-in role's name and description in the interface's language, by its
 * canonical name (`users:builtInRoles.<name>`), which the data keeps; a role
 * someone made shows as written.
 */
export function useRoleText() {
  const { t } = useTranslation('users');
  const name = useCallback(
    (role: NamedRole) => (role.builtIn ? t(`builtInRoles.${role.name}.name`, { defaultValue: role.name }) : role.name),
    [t],
  );
  const description = useCallback(
    (role: NamedRole) =>
      role.builtIn
        ? t(`builtInRoles.${role.name}.description`, { defaultValue: role.description ?? '' })
        : (role.description ?? ''),
    [t],
  );
  return { name, description };
}
