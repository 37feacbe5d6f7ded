import type { Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import classes from './row-action.module.css';

/*
 * The icon actions of a list row. They look like Mantine's subtle ActionIcon
 * but are plain elements: a grid scrolled fast mounts dozens of rows a frame,
 * and three ActionIcons with router Links were two thirds of a row's cost.
 */

const actionClass = `${classes.action} mantine-focus-auto mantine-active`;
const ICON_SIZE = 16;

/** The icons every list row draws, as one masked element each (row-action.module.css); others are Tabler components. */
export type RowIcon = 'show' | 'edit' | 'delete';

function ActionIcon({ icon: Shown }: { icon: Icon | RowIcon }) {
  if (typeof Shown === 'string') return <span className={classes.icon} data-icon={Shown} aria-hidden />;
  return <Shown size={ICON_SIZE} aria-hidden />;
}

/** The actions of one row, side by side. */
export function RowActions({ children }: { children: ReactNode }) {
  return <div className={classes.actions}>{children}</div>;
}

/**
 * An action that opens a page of the app: a real link (new tab, copy
 * address). The list grid follows it in the app on a plain click, with one
 * handler for all its rows' links (list-grid.tsx), not a router hook each.
 */
export function RowActionLink({ to, label, icon }: { to: string; label: string; icon: Icon | RowIcon }) {
  return (
    <a href={to} className={actionClass} aria-label={label}>
      <ActionIcon icon={icon} />
    </a>
  );
}

/** An action done on the list screen itself, such as delete. */
export function RowActionButton({
  label,
  icon,
  color,
  onClick,
}: {
  label: string;
  icon: Icon | RowIcon;
  color?: 'red';
  onClick: () => void;
}) {
  return (
    <button type="button" className={actionClass} data-color={color} aria-label={label} onClick={onClick}>
      <ActionIcon icon={icon} />
    </button>
  );
}
