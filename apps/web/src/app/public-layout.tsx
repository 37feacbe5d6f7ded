import { ActionIcon, Box, Center, Group, Image, Menu, Paper, Stack, Text } from '@mantine/core';
import { IconAdjustments } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import logo from './logo.svg';
import { LanguageMenuItems, ThemeMenuItems } from './preferences.tsx';

/** Sign-in and the other account screens: one card in the middle, theme and language in a corner. */
export function PublicLayout() {
  const { t } = useTranslation();
  return (
    <Box mih="100dvh" bg="var(--mantine-color-default-hover)">
      <Group justify="flex-end" p="sm">
        <Menu position="bottom-end" width={200}>
          <Menu.Target>
            <ActionIcon variant="default" size="lg" aria-label={`${t('userMenu.theme')} / ${t('userMenu.language')}`}>
              <IconAdjustments size={18} aria-hidden />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <ThemeMenuItems />
            <Menu.Divider />
            <LanguageMenuItems />
          </Menu.Dropdown>
        </Menu>
      </Group>
      <Center px="sm" pb="xl">
        <Stack w="100%" maw={420} gap="lg">
          <Group gap="xs" justify="center">
            <Image src={logo} alt="" w={36} h={36} />
            <Text fw={700} size="xl">
              {t('appName')}
            </Text>
          </Group>
          <Paper component="main" id="main" withBorder shadow="sm" p="xl" radius="md">
            <Outlet />
          </Paper>
        </Stack>
      </Center>
    </Box>
  );
}
