import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { Button, Group, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useFormat } from '../i18n/format.ts';
import { formatTotal } from '../i18n/totals.ts';
import type { Layout } from '../store/layouts-slice.ts';
import { ColumnChooser } from './column-chooser.tsx';
import { ExportMenu } from './export-menu.tsx';
import { ImportButton } from './import-modal.tsx';
import { ListSearchRow } from './list-search-row.tsx';
import type { ListView } from './list-state.ts';
import { ListViews } from './list-views.tsx';

/** What the user may do on the list, as the role allows. */
export interface ListAbilities {
  create: boolean;
  import: boolean;
  export: boolean;
}

/**
 * The list's heading (its name, the saved view's, the total) and its tools:
 * saved views, columns, import, export, create; then search and filters.
 */
export function ListToolbar({
  entity,
  rootPath,
  view,
  current,
  total,
  may,
  exportParams,
  createLabel,
  toolbar,
  header,
  onChange,
}: {
  entity: EntityDescription;
  rootPath: string;
  view: ListView;
  current: Layout | undefined;
  total: { value: number; exact: boolean } | null;
  may: ListAbilities;
  /** What Export writes: the list's columns, filters, search and sort. */
  exportParams: readonly [string, string][];
  createLabel?: string;
  toolbar?: ReactNode;
  header?: ReactNode;
  onChange: (changes: Partial<ListView>) => void;
}) {
  const { t } = useTranslation(['common', 'entities']);
  const format = useFormat();
  const [search] = useSearchParams();
  const plural = t(`entities:resources.${entity.name}.other`);

  const createHref = useMemo(() => {
    const params = new URLSearchParams(search);
    params.set('create', '1');
    return `?${params.toString()}`;
  }, [search]);

  const shownTotal =
    total === null
      ? null
      : total.exact
        ? t('list.records', { count: total.value, formatted: format.number(total.value) })
        : t('list.recordsAbout', { total: formatTotal(total.value, false, format, t) });

  return (
    <>
      <Group justify="space-between" align="center" wrap="wrap">
        <Group gap="sm" align="baseline">
          <Title order={1} size="h2">
            {current ? `${plural} – ${current.name}` : plural}
          </Title>
          {shownTotal !== null ? (
            <Text c="dimmed" size="sm" data-testid="list-total" aria-live="polite">
              {shownTotal}
            </Text>
          ) : null}
        </Group>
        <Group gap="xs">
          <ListViews rootPath={rootPath} view={view} current={current} defaultShows={entity.list.defaultShows} />
          <ColumnChooser entity={entity} shows={view.shows} onChange={(shows) => onChange({ shows })} />
          {may.import ? <ImportButton resource={entity.name} /> : null}
          {may.export ? <ExportMenu resource={entity.name} params={exportParams} /> : null}
          {entity.duplicates ? (
            <Button component={Link} to={`${rootPath}/duplicates`} size="xs" variant="default">
              {t('list.duplicates')}
            </Button>
          ) : null}
          {may.create ? (
            <Button component={Link} to={createHref} size="xs" leftSection={<IconPlus size={14} aria-hidden />}>
              {createLabel ?? t('actions.create')}
            </Button>
          ) : null}
          {toolbar}
        </Group>
      </Group>
      {header}
      <ListSearchRow entity={entity} view={view} onChange={onChange} />
    </>
  );
}
