import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { Group, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListFilters } from './list-filters.tsx';
import type { ListView } from './list-state.ts';

const SEARCH_DELAY_MS = 300;

/**
 * A list's search box and filters, under its tools (the list and the deal
 * board): the search is sent as the user types, once they pause.
 */
export function ListSearchRow({
  entity,
  view,
  onChange,
}: {
  entity: EntityDescription;
  view: ListView;
  onChange: (changes: Partial<ListView>) => void;
}) {
  const { t } = useTranslation('common');
  const [searchText, setSearchText] = useState(view.q);
  useEffect(() => setSearchText(view.q), [view.q]);
  useEffect(() => {
    if (searchText === view.q) return;
    const timer = setTimeout(() => onChange({ q: searchText }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [searchText, view.q, onChange]);

  return (
    <Group gap="xs" align="center" wrap="wrap">
      <TextInput
        type="search"
        size="xs"
        w={260}
        leftSection={<IconSearch size={14} aria-hidden />}
        placeholder={t('list.search')}
        aria-label={t('list.search')}
        value={searchText}
        onChange={(event) => setSearchText(event.currentTarget.value)}
      />
      <ListFilters entity={entity} filters={view.filters} onChange={(filters) => onChange({ filters })} />
    </Group>
  );
}
