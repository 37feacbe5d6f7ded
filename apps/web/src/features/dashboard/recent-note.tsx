import { recordName, recordNameJoins } from '@data-platform/shared/entities/record-name';
import { findEntity } from '@data-platform/shared/entities/registry';
import type { DashboardSummaries } from '@data-platform/shared/summaries';
import { Anchor, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MarkdownText } from '../../entity/markdown-text.tsx';
import { useRecordQuery } from '../../entity/record-api.ts';
import { recordPath, useMay } from '../../entity/record-routes.ts';
import { useFormat } from '../../i18n/format.ts';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';

type Note = NonNullable<DashboardSummaries['recentNotes']>[number];

/**
 * One of the latest notes: its text in markdown, who wrote it when, and the
 * record it is on, by name, linking to that record's page. The name is read
 * like any record (what the reader may not read stays "Deal #81", unlinked).
 */
export function RecentNote({ note }: { note: Note }) {
  const { t } = useTranslation(['dashboard', 'entities']);
  const format = useFormat();
  const localized = useLocalizedPath();
  const entity = findEntity(note.entity);
  const mayRead = useMay(note.entity)('read');
  const args = useMemo(
    () => ({
      resource: note.entity,
      id: note.recordId,
      select: entity ? [entity.display] : [],
      join: entity ? recordNameJoins(entity) : [],
    }),
    [note.entity, note.recordId, entity],
  );
  const { data: record } = useRecordQuery(args, { skip: !entity || !mayRead });
  const path = record ? recordPath(note.entity, note.recordId, 'show') : undefined;
  const name =
    record && entity
      ? recordName(entity, record)
      : t('noteOn', { resource: t(`entities:resources.${note.entity}.one`), id: note.recordId });
  return (
    <div>
      <Text component="div" size="sm" lineClamp={3}>
        <MarkdownText text={note.body} />
      </Text>
      <Text size="xs" c="dimmed">
        {t('noteMeta', {
          author: note.createdBy?.fullName ?? t('unknownAuthor'),
          date: format.dateTime(note.createdAt),
        })}
        {' · '}
        {path ? (
          <Anchor component={Link} to={localized(path)} size="xs" underline="always">
            {t('noteOnRecord', { resource: t(`entities:resources.${note.entity}.one`), name })}
          </Anchor>
        ) : (
          name
        )}
      </Text>
    </div>
  );
}
