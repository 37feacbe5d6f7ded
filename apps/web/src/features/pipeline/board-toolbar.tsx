import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { Group, NativeSelect, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ListSearchRow } from '../../entity/list-search-row.tsx';
import type { ListView } from '../../entity/list-state.ts';
import { useFormat } from '../../i18n/format.ts';
import type { Layout } from '../../store/layouts-slice.ts';
import { ViewModeToggle } from './view-mode-toggle.tsx';

/**
 * The board's heading and tools: its count, List/Board, the list's saved
 * views, then the list's search and filters (the same components and state).
 */
export function BoardToolbar({
  entity,
  rootPath,
  view,
  current,
  layouts,
  total,
  onChange,
  onOpen,
}: {
  entity: EntityDescription;
  rootPath: string;
  view: ListView;
  current: Layout | undefined;
  layouts: readonly Layout[];
  total: number | null;
  onChange: (changes: Partial<ListView>) => void;
  onOpen: (layout: Layout | undefined) => void;
}) {
  const { t } = useTranslation(['pipeline', 'common']);
  const format = useFormat();

  return (
    <>
      <Group justify="space-between" align="center" wrap="wrap">
        <Group gap="sm" align="baseline">
          <Title order={1} size="h2">
            {current ? t('viewTitle', { name: current.name }) : t('title')}
          </Title>
          {total !== null ? (
            <Text c="dimmed" size="sm" data-testid="board-total" aria-live="polite">
              {t('count', { count: total, formatted: format.number(total) })}
            </Text>
          ) : null}
        </Group>
        <Group gap="xs" align="center">
          <NativeSelect
            size="xs"
            aria-label={t('views.label')}
            title={t('views.hint')}
            value={current?.customPath ?? ''}
            data={[
              { value: '', label: t('views.all') },
              ...layouts.map((layout) => ({ value: layout.customPath, label: layout.name })),
            ]}
            onChange={(event) => onOpen(layouts.find((layout) => layout.customPath === event.currentTarget.value))}
          />
          <ViewModeToggle rootPath={rootPath} mode="board" />
        </Group>
      </Group>
      <ListSearchRow entity={entity} view={view} onChange={onChange} />
    </>
  );
}
