import type { Menu, MenuProps } from '@mantine/core';
import { cloneElement, lazy, type ReactElement, type ReactNode, Suspense, useState } from 'react';

const OpenedMenu = lazy(async () => ({ default: (await import('./mantine-menu.tsx')).OpenedMenu }));

/**
 * A menu whose code loads with the first click on its target rather than
 * with the screen (issue #11: a list's first screen fetches no menu or
 * popover code). Until then the target is a plain button; then the menu,
 * opened by that click. `children` builds the dropdown's items from the
 * loaded Menu (`menu.Item`, `menu.Label`, `menu.Divider`).
 */
export function OnDemandMenu({
  target,
  children,
  ...props
}: Omit<MenuProps, 'children'> & {
  target: ReactElement<{ onClick?: () => void; 'aria-haspopup'?: 'menu' }>;
  children: (menu: typeof Menu) => ReactNode;
}) {
  const [used, setUsed] = useState(false);
  const button = cloneElement(target, { onClick: () => setUsed(true), 'aria-haspopup': 'menu' });
  if (!used) return button;
  return (
    <Suspense fallback={button}>
      <OpenedMenu props={props} target={target} dropdown={children} />
    </Suspense>
  );
}
