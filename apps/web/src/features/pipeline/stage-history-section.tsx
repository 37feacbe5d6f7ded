import { Button, Card, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../i18n/format.ts';
import type { Row } from '../../store/resource-slices.ts';
import { useRecordHistoryInfiniteQuery } from '../history/history-api.ts';
import { BOARD_FIELD } from './pipeline-field.ts';
import { durationSince, inStageSince, stageChanges } from './stage-history.ts';

/** History pages read at most, looking for the change into the current stage, before "Older changes" is left to the user. */
const SEARCHED_PAGES = 5;

/**
 * A deal's time in its stage and its stage changes, newest first, from its
 * record history (the same pages its activity timeline reads).
 */
export function StageHistorySection({ id, record }: { id: number; record: Row }) {
  const { t, i18n } = useTranslation(['pipeline', 'options']);
  const format = useFormat();
  const history = useRecordHistoryInfiniteQuery({ resource: 'deals', id });
  const { data, hasNextPage, isFetching, fetchNextPage } = history;
  const entries = useMemo(() => data?.pages.flatMap((page) => page.data) ?? [], [data]);
  const changes = useMemo(() => stageChanges(entries), [entries]);
  const current = record[BOARD_FIELD];
  const since = inStageSince(changes, current);
  const pages = data?.pages.length ?? 0;

  // The change into the current stage may be older than the first page: a few more pages are read for it.
  useEffect(() => {
    if (since === null && hasNextPage && !isFetching && pages > 0 && pages < SEARCHED_PAGES) void fetchNextPage();
  }, [since, hasNextPage, isFetching, pages, fetchNextPage]);

  // A picklist option's label, as the list and the board show it (entity/field-widgets' optionLabel).
  const stage = (value: string | null) =>
    value === null ? t('noStage') : t(value, { ns: 'options', keySeparator: false, nsSeparator: false });
  return (
    <Card withBorder padding="md" data-testid="stage-history">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('stageHistory.title')}
        </Title>
        {since !== null ? (
          <Text size="sm" data-testid="time-in-stage">
            {t('stageHistory.inStage', {
              stage: stage(typeof current === 'string' ? current : null),
              duration: durationSince(since, Date.now(), i18n.resolvedLanguage ?? 'en'),
              date: format.dateTime(since),
            })}
          </Text>
        ) : null}
        {data === undefined ? <Loader size="xs" role="status" aria-label={t('loading')} /> : null}
        {data !== undefined && changes.length === 0 && !isFetching ? (
          <Text size="sm" c="dimmed">
            {t('stageHistory.none')}
          </Text>
        ) : null}
        {changes.length > 0 ? (
          <Stack component="ul" gap={4} m={0} p={0} style={{ listStyle: 'none' }} data-testid="stage-changes">
            {changes.map((change) => (
              <li key={`${change.at}-${change.to}`}>
                <Text component="span" size="sm" c="dimmed">
                  {format.dateTime(change.at)}
                </Text>{' '}
                <Text component="span" size="sm" fw={500}>
                  {t('stageHistory.change', { from: stage(change.from), to: stage(change.to) })}
                </Text>
                {change.by ? (
                  <Text component="span" size="sm" c="dimmed">
                    {' '}
                    {t('stageHistory.by', { name: change.by })}
                  </Text>
                ) : null}
              </li>
            ))}
          </Stack>
        ) : null}
        {hasNextPage && (since !== null || pages >= SEARCHED_PAGES) ? (
          <Button size="xs" variant="default" loading={isFetching} onClick={() => void fetchNextPage()}>
            {t('stageHistory.loadMore')}
          </Button>
        ) : null}
      </Stack>
    </Card>
  );
}
