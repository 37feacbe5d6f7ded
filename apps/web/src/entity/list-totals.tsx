import { Button, Group } from '@mantine/core';
import { lazy, type ReactNode, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column } from './columns.ts';
import classes from './list-totals.module.css';

/** What the list gives its totals. */
export interface ListTotalsProps {
  resource: string;
  /** The list's parameters as the list page builds them: its filters and search are what is totalled. */
  query: readonly [string, string][];
  /** The columns shown: each that adds up (numbers, money) gets its totals, in the same order. */
  columns: readonly Column[];
}

// The totals themselves (tables, group-by, number formats) are fetched when first shown: a list
// without them does not load them (the signed-in list's JavaScript budget, issue #11).
const ShownTotals = lazy(async () => ({ default: (await import('./list-totals-body.tsx')).ShownTotals }));

/** Whether the totals of a resource's list are shown, remembered in this browser (they cost a read of every row). */
function useShown(resource: string): [boolean, (shown: boolean) => void] {
  const key = `totals:${resource}`;
  const [shown, setShown] = useState(() => {
    try {
      return localStorage.getItem(key) === 'shown';
    } catch {
      return false;
    }
  });
  const change = (next: boolean) => {
    setShown(next);
    try {
      if (next) localStorage.setItem(key, 'shown');
      else localStorage.removeItem(key);
    } catch {
      // Storage refused (private mode): shown for this visit only.
    }
  };
  return [shown, change];
}

/**
 * The footer of a list: the totals of the whole filtered list (not of the
 * rows loaded), computed by the server: its count and, per column shown
 * that adds up, the sum, average, minimum and maximum, per currency for
 * money; and subtotals per option of a picklist the user groups by.
 * Hidden until asked for, as each reads every row of the list.
 */
export function ListTotals({ resource, query, columns }: ListTotalsProps) {
  const { t } = useTranslation('totals');
  const [shown, setShown] = useShown(resource);
  const bodyId = useId();
  const toggle: ReactNode = (
    <Button
      variant="default"
      size="xs"
      aria-expanded={shown}
      aria-controls={shown ? bodyId : undefined}
      onClick={() => setShown(!shown)}
    >
      {shown ? t('hide') : t('show')}
    </Button>
  );
  const alone = (
    <Group gap="sm" align="end">
      {toggle}
    </Group>
  );
  return (
    <section className={classes.footer} aria-label={t('region')}>
      {shown ? (
        <Suspense fallback={alone}>
          <ShownTotals resource={resource} query={query} columns={columns} toggle={toggle} bodyId={bodyId} />
        </Suspense>
      ) : (
        alone
      )}
    </section>
  );
}
