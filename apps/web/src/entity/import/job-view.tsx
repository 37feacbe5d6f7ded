import type { ImportJob } from '@data-platform/shared/imports';
import { Alert, Button, Group, Progress, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowBackUp, IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../i18n/format.ts';
import { FailureAlert } from './failure.tsx';
import type { FollowedJob } from './follow-job.ts';
import { canUndo, hasBadRows, progressOf, timeLeft } from './wizard-logic.ts';

/** "1 h 2 min", "3 min 20 s", "12 s": the time a job has left. */
export function useDuration() {
  const { t } = useTranslation('transfer');
  return (seconds: number) => {
    const left = timeLeft(seconds);
    if (left.hours > 0) return t('wizard.duration.hours', { hours: left.hours, minutes: left.minutes });
    if (left.minutes > 0) return t('wizard.duration.minutes', { minutes: left.minutes, seconds: left.seconds });
    return t('wizard.duration.seconds', { seconds: left.seconds });
  };
}

/** A job that is going: its bar (rows done of the file's), its speed, the time it has left; Cancel. */
export function JobProgress({
  job,
  onCancel,
  cancelling,
  cancelAsked,
}: {
  job: ImportJob;
  onCancel: () => void;
  cancelling: boolean;
  /** Cancel was accepted: the job is stopping (and, all or nothing, taking back what it wrote). */
  cancelAsked: boolean;
}) {
  const { t } = useTranslation('transfer');
  const format = useFormat();
  const duration = useDuration();
  const progress = progressOf(job);
  const label =
    cancelAsked && job.status !== 'undoing'
      ? t(job.mode === 'allOrNothing' ? 'wizard.stoppingBack' : 'wizard.stopping')
      : t(`wizard.phase.${progress.phase}`);
  return (
    <Stack data-testid="import-progress">
      <Title order={2} size="h4">
        {label}
      </Title>
      <Progress
        value={progress.percent ?? 100}
        striped={progress.percent === null}
        animated={progress.percent === null}
        size="lg"
        aria-label={label}
      />
      <Group gap="lg" aria-live="polite">
        <Text size="sm" data-testid="import-rows">
          {progress.total === null
            ? t('wizard.rowsSoFar', { count: progress.done, done: format.number(progress.done) })
            : t('wizard.rowsOf', {
                count: progress.total,
                done: format.number(progress.done),
                total: format.number(progress.total),
              })}
        </Text>
        {job.rowsPerSecond !== null ? (
          <Text size="sm">{t('wizard.rate', { rate: format.number(Math.round(job.rowsPerSecond)) })}</Text>
        ) : null}
        {job.secondsLeft !== null ? (
          <Text size="sm">{t('wizard.timeLeft', { time: duration(job.secondsLeft) })}</Text>
        ) : null}
      </Group>
      <Text size="sm" c="dimmed">
        {t('wizard.goesOn')}
      </Text>
      {job.status !== 'undoing' ? (
        <Group justify="flex-end">
          <Button color="red" variant="light" loading={cancelling} disabled={cancelAsked} onClick={onCancel}>
            {t('wizard.cancelImport')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

const counts = [
  'created',
  'updated',
  'unchanged',
  'skipped',
  'failed',
  'duplicatesInFile',
  'duplicatesStored',
] as const;

/** A job that has ended: what it did, its problems, its bad rows to download, Undo; back to the list. */
export function JobDone({
  job,
  resource,
  follow,
  onClose,
}: {
  job: ImportJob;
  resource: string;
  follow: FollowedJob;
  onClose: () => void;
}) {
  const { t } = useTranslation(['transfer', 'entities']);
  const format = useFormat();
  const color =
    job.status === 'succeeded' || job.status === 'undone' ? 'green' : job.status === 'failed' ? 'red' : 'yellow';
  const fieldLabel = (field: string) =>
    field === 'row' || field === 'file' ? '' : t(`entities:fields.${resource}.${field}`, { defaultValue: field });
  return (
    <Stack data-testid="import-done">
      <Alert
        color={color}
        title={t(`transfer:wizard.status.${job.status}`)}
        role="status"
        // The title in the text's colour: a light alert's green or yellow title is too pale to read.
        styles={{ title: { color: 'var(--mantine-color-text)' } }}
      >
        {job.message ? <Text size="sm">{job.message}</Text> : null}
        {job.recovery ? <Text size="sm">{t(`transfer:wizard.recovery.${job.recovery}`)}</Text> : null}
      </Alert>
      <Table withTableBorder w="auto" data-testid="import-counts">
        <Table.Tbody>
          {counts.map((count) => (
            <Table.Tr key={count}>
              <Table.Th scope="row">{t(`transfer:wizard.counts.${count}`)}</Table.Th>
              <Table.Td ta="right">{format.number(job[count])}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {job.undo ? (
        <Alert
          color="blue"
          // An undo follows a finished import; a job that failed, was cancelled or stopped is taken back.
          title={t(job.status === 'undone' ? 'transfer:wizard.undone' : 'transfer:wizard.takenBack')}
          data-testid="import-undo"
          styles={{ title: { color: 'var(--mantine-color-text)' } }}
        >
          <Text size="sm">
            {t(job.status === 'undone' ? 'transfer:wizard.undoReport' : 'transfer:wizard.takenBackReport', {
              deleted: format.number(job.undo.deleted),
              restored: format.number(job.undo.restored),
              kept: format.number(job.undo.keptCount),
            })}
          </Text>
          {job.undo.kept.slice(0, 20).map((kept) => (
            <Text size="sm" key={kept.id}>
              #{kept.id}: {kept.reason}
            </Text>
          ))}
        </Alert>
      ) : null}
      {job.problems.length > 0 ? (
        <Stack gap="xs">
          <Title order={2} size="h5">
            {t('transfer:wizard.problems', { count: job.problemCount, formatted: format.number(job.problemCount) })}
          </Title>
          <ScrollArea.Autosize mah={220} type="auto">
            <Table data-testid="import-problems" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('transfer:wizard.row')}</Table.Th>
                  <Table.Th scope="col">{t('transfer:wizard.field')}</Table.Th>
                  <Table.Th scope="col">{t('transfer:wizard.problem')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {job.problems.map((problem) => (
                  <Table.Tr key={`${problem.row}.${problem.field}`}>
                    <Table.Td>{problem.row}</Table.Td>
                    <Table.Td>{fieldLabel(problem.field)}</Table.Td>
                    <Table.Td>{problem.message}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        </Stack>
      ) : null}
      <FailureAlert failure={follow.actionFailure} />
      <Group justify="space-between">
        <Group>
          {hasBadRows(job) ? (
            <Button
              variant="default"
              leftSection={<IconDownload size={14} aria-hidden />}
              loading={follow.downloading}
              onClick={follow.download}
            >
              {t('transfer:wizard.downloadBadRows')}
            </Button>
          ) : null}
          {canUndo(job) ? (
            <Button
              variant="default"
              color="red"
              leftSection={<IconArrowBackUp size={14} aria-hidden />}
              loading={follow.undoing}
              onClick={follow.undo}
            >
              {t('transfer:wizard.undo')}
            </Button>
          ) : null}
        </Group>
        <Button onClick={onClose}>{t('transfer:wizard.showList')}</Button>
      </Group>
    </Stack>
  );
}
