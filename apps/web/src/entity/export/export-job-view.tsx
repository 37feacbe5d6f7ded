import type { ExportJob } from '@data-platform/shared/export-jobs';
import { Alert, Button, Group, Loader, Progress, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../i18n/format.ts';
import { type Failure, FailureAlert, useFailure } from '../import/failure.tsx';
import { useDuration } from '../import/job-view.tsx';
import { useCancelExportMutation, useDownloadExportMutation, useExportJobQuery } from './export-api.ts';
import { isGoing, percentOf } from './export-logic.ts';

/** How often a job that is still going is read again. */
const POLL_MS = 1000;

/** "1,200 of about 60,000 rows", "1,200 of 2,500 rows", or "1,200 rows" while the total is unknown. */
export function useRowsText() {
  const { t } = useTranslation('transfer');
  const format = useFormat();
  return (job: ExportJob) => {
    const done = format.number(job.rowsWritten);
    if (job.rowsTotal === null || job.rowsWritten > job.rowsTotal) {
      return t('exports.rowsSoFar', { count: job.rowsWritten, done });
    }
    const total = format.number(job.rowsTotal);
    return t(job.totalExact ? 'exports.rowsOf' : 'exports.rowsOfAbout', { count: job.rowsTotal, done, total });
  };
}

/** Downloads a finished job's file: the job being downloaded, and the failure when there is one, to show. */
export function useDownload(): {
  download: (job: ExportJob) => void;
  downloading: number | null;
  failure: Failure | null;
} {
  const toFailure = useFailure();
  const [downloadFile, { isLoading, originalArgs }] = useDownloadExportMutation();
  const downloading = isLoading && originalArgs ? originalArgs.id : null;
  const [failure, setFailure] = useState<Failure | null>(null);
  return {
    download: (job) => {
      setFailure(null);
      void downloadFile(job).then((answer) => {
        if ('error' in answer) setFailure(toFailure(answer.error));
      });
    },
    downloading,
    failure,
  };
}

/**
 * One export job, followed until it ends (read again every second while it
 * goes): its progress, rate and time left with Cancel; then its end, with
 * Download while the file is kept.
 */
export function ExportJobView({ id, onStatus }: { id: number; onStatus: (job: ExportJob) => void }) {
  const { t } = useTranslation('transfer');
  const toFailure = useFailure();
  const [going, setGoing] = useState(true);
  const query = useExportJobQuery(id, { pollingInterval: going ? POLL_MS : 0 });
  const job = query.data;
  const seen = useRef<string | undefined>(undefined);
  useEffect(() => {
    // Once per status: polling stops when it ends, and what shows it elsewhere (the recent list) is read again.
    if (!job || job.status === seen.current) return;
    seen.current = job.status;
    setGoing(isGoing(job));
    onStatus(job);
  }, [job, onStatus]);

  if (query.error) return <FailureAlert failure={toFailure(query.error)} />;
  if (!job) return <Loader size="sm" aria-label={t('exports.loading')} />;
  return isGoing(job) ? <ExportProgress job={job} /> : <ExportDone job={job} />;
}

function ExportProgress({ job }: { job: ExportJob }) {
  const { t } = useTranslation('transfer');
  const format = useFormat();
  const duration = useDuration();
  const rowsText = useRowsText();
  const toFailure = useFailure();
  const [cancel, { isLoading: cancelling, error }] = useCancelExportMutation();
  const percent = percentOf(job);
  const title = job.cancelRequested ? t('exports.stopping') : t(`exports.status.${job.status}`);
  const label = t('exports.progressLabel', { file: job.fileName });
  return (
    <Stack data-testid="export-progress">
      <Title order={2} size="h4">
        {title}
      </Title>
      {percent === null ? (
        // The total is not known: a bar that moves, read as the rows written so far.
        <Progress.Root size="lg">
          <Progress.Section
            value={100}
            striped
            animated
            withAria={false}
            role="progressbar"
            aria-label={label}
            aria-valuetext={rowsText(job)}
          />
        </Progress.Root>
      ) : (
        <Progress value={percent} size="lg" aria-label={label} />
      )}
      <Group gap="lg" aria-live="polite">
        <Text size="sm" data-testid="export-rows">
          {rowsText(job)}
        </Text>
        {job.rowsPerSecond ? (
          <Text size="sm">{t('exports.rate', { rate: format.number(job.rowsPerSecond) })}</Text>
        ) : null}
        {job.secondsLeft !== null ? (
          <Text size="sm">{t('exports.timeLeft', { time: duration(job.secondsLeft) })}</Text>
        ) : null}
      </Group>
      <Text size="sm" c="dimmed">
        {t('exports.goesOn')}
      </Text>
      <FailureAlert failure={error ? toFailure(error) : null} />
      <Group justify="flex-end">
        <Button
          color="red"
          variant="light"
          loading={cancelling}
          disabled={job.cancelRequested}
          onClick={() => void cancel(job.id)}
        >
          {t('exports.cancel')}
        </Button>
      </Group>
    </Stack>
  );
}

function ExportDone({ job }: { job: ExportJob }) {
  const { t } = useTranslation('transfer');
  const format = useFormat();
  const rowsText = useRowsText();
  const { download, downloading, failure } = useDownload();
  const color = job.status === 'succeeded' ? 'green' : job.status === 'failed' ? 'red' : 'yellow';
  return (
    <Stack data-testid="export-done">
      <Alert
        color={color}
        title={t(`exports.status.${job.status}`)}
        role="status"
        // The title in the text's colour: a light alert's green or yellow title is too pale to read.
        styles={{ title: { color: 'var(--mantine-color-text)' } }}
      >
        {job.status === 'succeeded' ? (
          <Text size="sm">
            {t('exports.wrote', { rows: rowsText(job), size: format.fileSize(job.bytes), file: job.fileName })}
          </Text>
        ) : null}
        {job.message ? <Text size="sm">{job.message}</Text> : null}
        {job.status === 'succeeded' ? (
          <Text size="sm">
            {job.fileUrl !== null && job.expiresAt !== null
              ? t('exports.keptUntil', { date: format.dateTime(job.expiresAt) })
              : t('exports.expired')}
          </Text>
        ) : null}
      </Alert>
      <FailureAlert failure={failure} />
      {job.fileUrl !== null ? (
        <Group>
          <Button
            leftSection={<IconDownload size={14} aria-hidden />}
            loading={downloading === job.id}
            onClick={() => download(job)}
          >
            {t('exports.downloadFile', { file: job.fileName })}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
