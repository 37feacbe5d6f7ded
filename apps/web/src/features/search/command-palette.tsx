import { MAX_SEARCH_LENGTH, type SearchGroup, type SearchHit } from '@data-platform/shared/search';
import { Loader, Modal, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { recordPath } from '../../entity/record-routes.ts';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';
import { useAppSelector } from '../../store/hooks.ts';
import classes from './command-palette.module.css';
import { type RecentRecord, recentRecords, rememberRecord } from './recent-records.ts';
import { useLazySearchQuery } from './search-api.ts';

/** Results per record type the palette asks for. */
const PER_TYPE = 5;
/** Typing pauses this long before a search is sent. */
const DEBOUNCE_MS = 150;

/** One line of the list: a found record or a recent one, under its group. */
interface Option {
  key: string;
  type: string;
  id: number;
  name: string;
  detail: string | null;
}

interface Group {
  key: string;
  label: string;
  options: Option[];
}

/**
 * The search palette (Ctrl-K / ⌘-K, or the shell's search button): records
 * of every type the user may read as they type, grouped by type, best first;
 * the records they opened from here recently when nothing is typed. Arrows
 * move, Enter opens the record's page, Escape closes. A combobox over a
 * listbox (WAI-ARIA), focus staying in the text box.
 */
export function CommandPalette({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation(['search', 'entities']);
  const navigate = useNavigate();
  const localized = useLocalizedPath();
  const userId = useAppSelector((state) => state.auth.currentUser?.user.id);
  const [text, setText] = useState('');
  const [q] = useDebouncedValue(text.trim(), DEBOUNCE_MS);
  // The answer for the term asked only (`currentData`): an older term's hits, shown while the newer one is read,
  // were replaced under the pointer, and Enter could open one of them.
  const [search, { currentData: data, isFetching, isError }] = useLazySearchQuery();
  const pending = useRef<{ abort(): void } | null>(null);
  // The active line by its key: a new list without it starts at its first line.
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const [recent, setRecent] = useState<RecentRecord[]>([]);
  const listId = useId();

  useEffect(() => {
    if (opened) {
      setText('');
      setRecent(userId === undefined ? [] : recentRecords(userId));
    }
  }, [opened, userId]);

  // One request in flight: a newer term aborts the one before it.
  useEffect(() => {
    pending.current?.abort();
    pending.current = q === '' ? null : search({ q, limit: PER_TYPE }, true);
  }, [q, search]);
  useEffect(() => () => pending.current?.abort(), []);

  const typing = text.trim() !== '';
  const groups: Group[] = useMemo(() => {
    const typeLabel = (type: string) => t(`entities:resources.${type}.other`);
    if (!typing) {
      if (recent.length === 0) return [];
      return [
        {
          key: 'recent',
          label: t('recent'),
          options: recent.map((r) => ({ key: `${r.type}:${r.id}`, ...r, detail: typeLabel(r.type) })),
        },
      ];
    }
    if (!data || q !== text.trim()) return [];
    return data.groups.map((group: SearchGroup) => ({
      key: group.type,
      label: typeLabel(group.type),
      options: group.hits.map((hit: SearchHit) => ({
        key: `${group.type}:${hit.id}`,
        type: group.type,
        id: hit.id,
        name: hit.name,
        detail: hit.matched ?? (hit.match === 'similar' ? t('similar') : null),
      })),
    }));
  }, [typing, recent, data, q, text, t]);
  const options = groups.flatMap((group) => group.options);
  const current = options.find((option) => option.key === activeKey) ?? options[0];

  const open = (option: Option) => {
    const path = recordPath(option.type, option.id, 'show');
    if (!path) return;
    if (userId !== undefined) rememberRecord(userId, { type: option.type, id: option.id, name: option.name });
    onClose();
    navigate(localized(path));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (options.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      const index = current ? options.indexOf(current) : -1;
      setActiveKey(options[(index + step + options.length) % options.length]?.key ?? null);
    } else if (event.key === 'Enter' && current) {
      event.preventDefault();
      open(current);
    }
  };

  useEffect(() => {
    if (current) document.getElementById(optionId(listId, current.key))?.scrollIntoView({ block: 'nearest' });
  }, [current, listId]);

  const status = !typing
    ? recent.length === 0
      ? t('noRecent')
      : null
    : isError
      ? t('failed')
      : isFetching || q !== text.trim()
        ? null
        : options.length === 0
          ? t('noResults', { q: text.trim() })
          : null;

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('title')}
      size="lg"
      yOffset="10vh"
      classNames={{ body: classes.body }}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <TextInput
        data-autofocus
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={onKeyDown}
        maxLength={MAX_SEARCH_LENGTH}
        placeholder={t('placeholder')}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={isFetching ? <Loader size="xs" role="status" aria-label={t('searching')} /> : null}
        role="combobox"
        aria-label={t('label')}
        aria-autocomplete="list"
        aria-expanded={options.length > 0}
        aria-controls={listId}
        aria-activedescendant={current ? optionId(listId, current.key) : undefined}
        autoComplete="off"
        spellCheck={false}
      />
      <div id={listId} role="listbox" aria-label={t('results')} className={classes.list}>
        {groups.map((group) => (
          // biome-ignore lint/a11y/useSemanticElements: a listbox's groups are role="group" (WAI-ARIA), not form fieldsets
          <div key={group.key} role="group" aria-labelledby={`${listId}-${group.key}`}>
            <div id={`${listId}-${group.key}`} className={classes.groupLabel} role="presentation">
              {group.label}
            </div>
            {group.options.map((option) => (
              // Focus stays in the text box (aria-activedescendant); a pointer picks a line too.
              // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox's text box handles the keys
              <div
                key={option.key}
                id={optionId(listId, option.key)}
                role="option"
                tabIndex={-1}
                aria-selected={option === current}
                className={classes.option}
                data-active={option === current || undefined}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => open(option)}
              >
                <span className={classes.name}>{option.name}</span>
                {option.detail ? <span className={classes.detail}>{option.detail}</span> : null}
              </div>
            ))}
          </div>
        ))}
      </div>
      {status ? (
        <Text size="sm" c="dimmed" role="status" className={classes.status}>
          {status}
        </Text>
      ) : null}
      <Text size="xs" c="dimmed" className={classes.hint}>
        {t('hint')}
      </Text>
    </Modal>
  );
}

function optionId(listId: string, key: string): string {
  return `${listId}-option-${key.replace(':', '-')}`;
}
