import { Menu, type MenuProps } from '@mantine/core';
import type { ReactElement, ReactNode } from 'react';

/** Mantine's Menu, open from its start: on-demand-menu.tsx loads this with the first click on its target. */
export function OpenedMenu({
  props,
  target,
  dropdown,
}: {
  props: MenuProps;
  target: ReactElement;
  dropdown: (menu: typeof Menu) => ReactNode;
}) {
  return (
    <Menu {...props} defaultOpened>
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>{dropdown(Menu)}</Menu.Dropdown>
    </Menu>
  );
}
