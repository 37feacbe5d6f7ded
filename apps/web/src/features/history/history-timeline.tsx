import { allFields } from '@data-platform/shared/entities/entity';
import type { HistoryChange, HistoryEntry } from '@data-platform/shared/history';
import { Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useFieldLabel } from '../../entity/cell-value.tsx';
import { useEntity } from '../../entity/custom-fields.ts';
import { FieldValue } from '../../entity/field-value.tsx';
import { useMay } from '../../entity/record-routes.ts';
import { useFormat } from '../../i18n/format.ts';
import { useAppDispatch } from '../../store/hooks.ts';
import { resourceApi } from '../../store/resource-slices.ts';
import { useRecordHistoryInfiniteQuery, useRestoreFieldMutation } from './history-api.ts';

interface TimelineProps {
  resource: string;
  id: number;
  /** The record's version as the page shows it: a restore is checked against it (412 when stale). */
  version: number;
}

/** One value as the record's page shows it, or "(empty)". */
function ChangeValue({ resource, field, value }: { resource: string; field: string; value: unknown }) {
  const { t } = useTranslation('history');
  const { entity } = useEntity(resource);
  const description = allFields(entity)[field];
  const empty = value === null || value === undefined || (Array.isArray(value) && value.length === 0);
  if (empty || !description) {
    return (
      <Text component="span" size="sm" c="dimmed">
        {empty ? t('emptyValue') : String(value)}
      </Text>
    );
  }
  return (
    <Text component="span" size="sm" fw={500}>
      <FieldValue row={{ id: 0, [field]: value }} name={field} field={description} />
    </Text>
  );
}

/** A changed field: its label, old → new, and a button that sets it back to the old value. */
function ChangeLine({
  resource,
  change,
  onRestore,
  restoring,
}: {
  resource: string;
  change: HistoryChange;
  onRestore?: (label: string) => void;
  restoring: boolean;
}) {
  const { t } = useTranslation('history');
  const { entity } = useEntity(resource);
  const label = useFieldLabel(resource)(change.field, allFields(entity)[change.field]);
  return (
    <Group gap="xs" wrap="wrap" data-testid="history-change">
      <Text component="span" size="sm">
        {label}:
      </Text>
      <ChangeValue resource={resource} field={change.field} value={change.old} />
      <Text component="span" size="sm" aria-hidden>
        →
      </Text>
      <ChangeValue resource={resource} field={change.field} value={change.new} />
      {onRestore ? (
        <Button
          size="compact-xs"
          variant="subtle"
          leftSection={<IconArrowBackUp size={14} aria-hidden />}
          aria-label={t('restoreLabel', { field: label })}
          loading={restoring}
          onClick={() => onRestore(label)}
        >
          {t('restore')}
        </Button>
      ) : null}
    </Group>
  );
}

/** What an entry about a note, a file, a task, a link or a record merged into this one says, in the reader's language. */
function subjectSentence(
  resource: string,
  entry: HistoryEntry,
  actor: string,
  t: (key: string, values?: Record<string, string>) => string,
): string {
  const subject = entry.subject?.entity ?? '';
  if (subject === resource) {
    return t('history:mergedFrom', { actor, name: entry.linked?.name ?? `#${entry.subject?.id ?? ''}` });
  }
  const value = (field: string) => {
    const change = entry.changes.find((c) => c.field === field);
    return change ? String(change.new ?? change.old ?? '') : '';
  };
  const verb = { created: 'Added', updated: 'Edited', deleted: 'Removed', restored: 'Restored' }[entry.action];
  if (subject === 'notes') return t(`history:note${verb === 'Restored' ? 'Added' : verb}`, { actor });
  if (subject === 'files')
    return t(`history:file${verb === 'Edited' || verb === 'Restored' ? 'Added' : verb}`, {
      actor,
      name: value('name'),
    });
  if (subject === 'tasks') return t(`history:task${verb === 'Restored' ? 'Added' : verb}`, { actor });
  const linked = entry.linked;
  const what = linked ? t(`entities:resources.${linked.entity}.one`).toLocaleLowerCase() : '';
  const name = linked ? (linked.name ?? `#${linked.id}`) : '';
  return t(`history:link${verb}`, { actor, what, name });
}

function Entry({
  resource,
  id,
  version,
  entry,
  onChanged,
}: TimelineProps & { entry: HistoryEntry; onChanged: () => void }) {
  const { t } = useTranslation(['history', 'entities']);
  const format = useFormat();
  const may = useMay(resource);
  const dispatch = useAppDispatch();
  const [restore, restoring] = useRestoreFieldMutation();
  const actor = entry.actor?.fullName ?? t('history:someone');
  const own = entry.subject === null;
  const showChanges = own
    ? entry.action === 'updated' || entry.action === 'restored'
    : entry.subject?.entity === 'notes';
  const onRestore = async (field: string, label: string) => {
    const result = await restore({ resource, id, entryId: entry.id, field, version });
    if ('error' in result) return;
    // The record's page reads the restored value (and its new version) from its own data area.
    dispatch(resourceApi(resource).util.invalidateTags(['List', { type: 'Record', id }]));
    onChanged();
    toast.success(t('history:restoredToast', { field: label }));
  };
  return (
    <Stack gap={4} data-testid="history-entry" component="li">
      <Group gap="xs" justify="space-between" wrap="nowrap">
        <Text size="sm" fw={600}>
          {own
            ? t(`history:${entry.action}`, { actor })
            : subjectSentence(resource, entry, actor, (key, values) => t(key, values))}
        </Text>
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {format.dateTime(entry.createdAt)}
        </Text>
      </Group>
      {showChanges && own
        ? entry.changes.map((change) => (
            <ChangeLine
              key={change.field}
              resource={resource}
              change={change}
              restoring={restoring.isLoading && restoring.originalArgs?.field === change.field}
              onRestore={may('update') ? (label) => void onRestore(change.field, label) : undefined}
            />
          ))
        : null}
      {showChanges && !own ? (
        <Text size="sm" c="dimmed" lineClamp={2}>
          {String(entry.changes.find((c) => c.field === 'body')?.new ?? '')}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * The record's activity timeline on its page: its changes (each field's
 * label, old → new, formatted as the page formats values, with a Restore
 * button), notes, files, tasks and links added or removed, newest first,
 * with "Load More...". Loaded with its texts only when a record's page opens.
 */
export default function HistoryTimeline({ resource, id, version }: TimelineProps) {
  const { t } = useTranslation('history');
  const { data, isLoading, isError, hasNextPage, fetchNextPage, isFetchingNextPage, refetch } =
    useRecordHistoryInfiniteQuery({ resource, id }, { refetchOnMountOrArgChange: true });
  const entries = data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <Card withBorder component="section" aria-labelledby="history-title">
      <Title order={2} size="h4" mb="sm" id="history-title">
        {t('title')}
      </Title>
      {isLoading ? <Loader size="sm" role="status" aria-label={t('loading')} /> : null}
      {isError ? (
        <Text size="sm" c="red">
          {t('loadFailed')}
        </Text>
      ) : null}
      {!isLoading && !isError && entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('empty')}
        </Text>
      ) : null}
      <Stack gap="md" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {entries.map((entry) => (
          <Entry
            key={entry.id}
            resource={resource}
            id={id}
            version={version}
            entry={entry}
            onChanged={() => void refetch()}
          />
        ))}
      </Stack>
      {hasNextPage ? (
        <Group mt="md">
          <Button variant="light" size="xs" loading={isFetchingNextPage} onClick={() => void fetchNextPage()}>
            {t('loadMore')}
          </Button>
        </Group>
      ) : null}
    </Card>
  );
}
