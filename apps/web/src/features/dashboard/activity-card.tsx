import type { ActivityItem } from '@data-platform/shared/activity';
import { allFields } from '@data-platform/shared/entities/entity';
import { Anchor, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFieldLabel } from '../../entity/cell-value.tsx';
import { useEntity } from '../../entity/custom-fields.ts';
import { useFormat } from '../../i18n/format.ts';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';
import { useActivityInfiniteQuery } from './activity-api.ts';
import { recordLink } from './record-link.ts';

/** The record a line is about: its name, a link to its page while it exists; `#12` once it is gone. */
function RecordName({ line }: { line: ActivityItem }) {
  const localized = useLocalizedPath();
  const path = line.recordExists && line.recordId !== null ? recordLink(line.entity, line.recordId) : undefined;
  const name = line.recordName ?? `#${line.recordId}`;
  return path ? (
    <Anchor component={Link} to={localized(path)} size="sm" fw={500} underline="always">
      {name}
    </Anchor>
  ) : (
    <Text component="span" size="sm" fw={500}>
      {name}
    </Text>
  );
}

/** The fields an update changed, by their labels (custom fields by theirs). */
function ChangedFields({ line }: { line: ActivityItem }) {
  const { t } = useTranslation('activity');
  const { entity } = useEntity(line.entity);
  const label = useFieldLabel(line.entity);
  const fields = allFields(entity);
  if (line.fields.length === 0) return null;
  return <>{t('changedFields', { fields: line.fields.map((name) => label(name, fields[name])).join(', ') })}</>;
}

/** A translated sentence with its `<name/>` marks replaced by the elements of those names. */
function sentence(text: string, parts: Record<string, ReactNode>): ReactNode[] {
  const nodes: ReactNode[] = [];
  const mark = /<(\w+)\/>/g;
  let from = 0;
  for (let found = mark.exec(text); found; found = mark.exec(text)) {
    // Keyed by where each piece starts in the sentence: fixed for a given text.
    nodes.push(<Fragment key={`text-${from}`}>{text.slice(from, found.index)}</Fragment>);
    nodes.push(<Fragment key={`mark-${found.index}`}>{parts[found[1] ?? ''] ?? null}</Fragment>);
    from = found.index + found[0].length;
  }
  nodes.push(<Fragment key={`text-${from}`}>{text.slice(from)}</Fragment>);
  return nodes;
}

/**
 * One line: who did what to which record, and when. Names (the actor's, the
 * record's, a file's) are elements of the sentence, never text interpolated
 * into it, so that the sentence's word order is each language's own.
 */
function ActivityLine({ line }: { line: ActivityItem }) {
  const { t } = useTranslation(['activity', 'entities']);
  const format = useFormat();
  const resource = t(`entities:resources.${line.entity}.one`).toLocaleLowerCase();
  const resources = t(`entities:resources.${line.entity}.other`).toLocaleLowerCase();
  const gone = !line.recordExists && line.action !== 'deleted' && line.action !== 'imported';
  return (
    <div data-testid="activity-line">
      <Text size="sm">
        {sentence(t(`activity:${line.action}`, { resource, resources, count: line.count ?? 0 }), {
          actor: (
            <Text component="span" size="sm" fw={600}>
              {line.actor?.fullName ?? t('activity:someone')}
            </Text>
          ),
          record: <RecordName line={line} />,
          file: (
            <Text component="span" size="sm" fs="italic">
              {line.fileName ?? ''}
            </Text>
          ),
        })}
        {gone ? ` ${t('activity:sinceDeleted')}` : null}
      </Text>
      <Text size="xs" c="dimmed">
        <time dateTime={line.createdAt}>{format.dateTime(line.createdAt)}</time>
        {line.fields.length > 0 ? ' · ' : null}
        <ChangedFields line={line} />
      </Text>
    </div>
  );
}

/**
 * Recent activity on the records the user may read, newest first, with
 * "Load more" for older lines. Read again each time the dashboard opens.
 */
export function ActivityCard() {
  const { t } = useTranslation('activity');
  const activity = useActivityInfiniteQuery(undefined, { refetchOnMountOrArgChange: true });
  const lines = activity.data?.pages.flatMap((page) => page.data) ?? [];
  const title = t('title');
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title} data-testid="recent-activity">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {activity.isFetching ? <Loader size="xs" role="status" aria-label={t('loading')} /> : null}
      </Group>
      {activity.isError ? (
        <Text c="red" size="sm" role="alert">
          {t('loadFailed')}
        </Text>
      ) : null}
      {activity.isSuccess && lines.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('empty')}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {lines.map((line) => (
            <li key={line.id}>
              <ActivityLine line={line} />
            </li>
          ))}
        </Stack>
      )}
      {activity.hasNextPage ? (
        <Group justify="center" mt="sm">
          <Button
            variant="subtle"
            size="xs"
            loading={activity.isFetchingNextPage}
            onClick={() => void activity.fetchNextPage()}
          >
            {t('loadMore')}
          </Button>
        </Group>
      ) : null}
    </Card>
  );
}
