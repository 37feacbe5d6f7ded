import { ActionIcon, Box, Center, Group, Image, Paper, Stack, Text } from '@mantine/core';
import { IconAdjustments } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import logo from './logo.svg';
import { InsideMain } from './main-landmark.ts';

// The menu (Mantine's Menu and its floating layer) is not part of the sign-in screen's first load (issue #11).
const PreferencesMenu = lazy(async () => ({ default: (await import('./preferences-menu.tsx')).PreferencesMenu }));

/** Theme and language in a corner: a button until first used, then the menu, opened by that click. */
function CornerPreferences() {
  const { t } = useTranslation();
  const [used, setUsed] = useState(false);
  const label = `${t('userMenu.theme')} / ${t('userMenu.language')}`;
  const button = (
    <ActionIcon variant="default" size="lg" aria-label={label} aria-haspopup="menu" onClick={() => setUsed(true)}>
      <IconAdjustments size={18} aria-hidden />
    </ActionIcon>
  );
  if (!used) return button;
  return (
    <Suspense fallback={button}>
      <PreferencesMenu label={label} />
    </Suspense>
  );
}

/** Sign-in and the other account screens: one card in the middle, theme and language in a corner. */
export function PublicLayout() {
  const { t } = useTranslation();
  return (
    <Box mih="100dvh" bg="var(--mantine-color-default-hover)">
      <Group justify="flex-end" p="sm">
        <CornerPreferences />
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
            <InsideMain.Provider value={true}>
              <Outlet />
            </InsideMain.Provider>
          </Paper>
        </Stack>
      </Center>
    </Box>
  );
}
