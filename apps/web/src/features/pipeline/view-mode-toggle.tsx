import { Button } from '@mantine/core';
import { IconLayoutKanban, IconList } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import { stripLanguage } from '../../i18n/languages.ts';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';
import { boardHref, listHref } from './board-logic.ts';

/**
 * "List" and "Board": the deals as the list or as the board by stage, with
 * the same filters, search, order and saved view (both addresses carry them).
 */
export function ViewModeToggle({ rootPath, mode }: { rootPath: string; mode: 'list' | 'board' }) {
  const { t } = useTranslation('pipeline');
  const localized = useLocalizedPath();
  const { pathname, search: here } = useLocation();
  const [search] = useSearchParams();
  const other = localized(
    mode === 'list' ? boardHref(rootPath, stripLanguage(pathname), search) : listHref(rootPath, search),
  );
  const modes = [
    { value: 'list', label: t('mode.list'), icon: IconList },
    { value: 'board', label: t('mode.board'), icon: IconLayoutKanban },
  ] as const;
  return (
    <nav aria-label={t('mode.label')}>
      <Button.Group>
        {modes.map(({ value, label, icon: Icon }) => (
          <Button
            key={value}
            component={Link}
            to={value === mode ? `${pathname}${here}` : other}
            aria-current={value === mode ? 'page' : undefined}
            size="xs"
            variant={value === mode ? 'filled' : 'default'}
            leftSection={<Icon size={14} aria-hidden />}
          >
            {label}
          </Button>
        ))}
      </Button.Group>
    </nav>
  );
}
