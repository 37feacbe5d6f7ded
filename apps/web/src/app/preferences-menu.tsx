import { ActionIcon, Menu } from '@mantine/core';
import { IconAdjustments } from '@tabler/icons-react';
import { LanguageMenuItems, ThemeMenuItems } from './preferences.tsx';

/** The theme and language menu of the account screens' corner, open from the start: it loads on the first click. */
export function PreferencesMenu({ label }: { label: string }) {
  return (
    <Menu position="bottom-end" width={200} defaultOpened>
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label={label}>
          <IconAdjustments size={18} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <ThemeMenuItems menu={Menu} />
        <Menu.Divider />
        <LanguageMenuItems menu={Menu} />
      </Menu.Dropdown>
    </Menu>
  );
}
