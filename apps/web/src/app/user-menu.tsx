import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconKey, IconLogout, IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSignOut } from '../features/auth/use-sign-out.ts';
import { useLocalizedPath } from '../i18n/use-localized-path.ts';
import type { CurrentUser } from '../store/auth-slice.ts';
import { LanguageMenuItems, ThemeMenuItems } from './preferences.tsx';

/** The signed-in user's menu: theme, language, change password, sign out. */
export function UserMenu({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const localized = useLocalizedPath();
  const signOut = useSignOut();
  return (
    <Menu position="bottom-end" width={240} withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={t('userMenu.open', { name: user.fullName })} data-testid="user-menu">
          <Group gap="xs" wrap="nowrap">
            <Avatar size="sm" color="indigo" radius="xl" aria-hidden>
              <IconUser size={16} />
            </Avatar>
            <Text size="sm" fw={500} visibleFrom="sm" truncate maw={160}>
              {user.fullName}
            </Text>
            <IconChevronDown size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('userMenu.signedInAs', { email: user.email })}</Menu.Label>
        <ThemeMenuItems />
        <Menu.Divider />
        <LanguageMenuItems />
        <Menu.Divider />
        <Menu.Item component={Link} to={localized('/change-password')} leftSection={<IconKey size={16} aria-hidden />}>
          {t('actions.changePassword')}
        </Menu.Item>
        <Menu.Item leftSection={<IconLogout size={16} aria-hidden />} onClick={signOut}>
          {t('actions.signOut')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
