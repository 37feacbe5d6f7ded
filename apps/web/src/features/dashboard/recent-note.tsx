import type { RecentNote as Note } from '@data-platform/shared/summaries';
import { Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MarkdownText } from '../../entity/markdown-text.tsx';
import { useFormat } from '../../i18n/format.ts';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';
import { recordLink } from './record-link.ts';

/**
 * One of the latest notes: its text in markdown, who wrote it when, and the
 * record it is on, by the name the summaries carry (read with the notes, in
 * the same statement), linking to that record's page. A record the reader may
 * not read has no name there and stays "Deal #81", unlinked.
 */
export function RecentNote({ note }: { note: Note }) {
  const { t } = useTranslation(['dashboard', 'entities']);
  const format = useFormat();
  const localized = useLocalizedPath();
  const resource = t(`entities:resources.${note.entity}.one`);
  const path = note.recordName === null ? undefined : recordLink(note.entity, note.recordId);
  return (
    <div data-testid="recent-note">
      <Text component="div" size="sm" lineClamp={3}>
        <MarkdownText text={note.body} />
      </Text>
      <Text size="xs" c="dimmed">
        {t('noteMeta', {
          author: note.createdBy?.fullName ?? t('unknownAuthor'),
          date: format.dateTime(note.createdAt),
        })}
        {' · '}
        {path && note.recordName !== null ? (
          <Anchor component={Link} to={localized(path)} size="xs" underline="always">
            {t('noteOnRecord', { resource, name: note.recordName })}
          </Anchor>
        ) : (
          t('noteOn', { resource, id: note.recordId })
        )}
      </Text>
    </div>
  );
}
