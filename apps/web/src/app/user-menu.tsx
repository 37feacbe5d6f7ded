import { Avatar, Group, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconKey, IconLogout, IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { OnDemandMenu } from '../entity/on-demand-menu.tsx';
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
    <OnDemandMenu
      position="bottom-end"
      width={240}
      withinPortal
      target={
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
      }
    >
      {(menu) => (
        <>
          <menu.Label>{t('userMenu.signedInAs', { email: user.email })}</menu.Label>
          <ThemeMenuItems menu={menu} />
          <menu.Divider />
          <LanguageMenuItems menu={menu} />
          <menu.Divider />
          <menu.Item
            component={Link}
            to={localized('/change-password')}
            leftSection={<IconKey size={16} aria-hidden />}
          >
            {t('actions.changePassword')}
          </menu.Item>
          <menu.Item leftSection={<IconLogout size={16} aria-hidden />} onClick={signOut}>
            {t('actions.signOut')}
          </menu.Item>
        </>
      )}
    </OnDemandMenu>
  );
}
