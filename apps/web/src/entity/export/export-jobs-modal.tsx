import type { ExportFormat } from '@data-platform/shared/export-formats';
import type { ExportJob } from '@data-platform/shared/export-jobs';
import { Modal, Stack, Text } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Failure, FailureAlert, useFailure } from '../import/failure.tsx';
import { useStartExportMutation } from './export-api.ts';
import { ExportJobView } from './export-job-view.tsx';
import { RecentExports } from './recent-exports.tsx';

/**
 * Exports in the background (decision 0036): starts a job over the list as
 * the user sees it when `start` names a format, follows the job the page's
 * address names (`?export=<id>`, export-menu.tsx: a reload shows it again),
 * and lists the user's recent exports with their downloads.
 */
export function ExportJobsModal({
  resource,
  params,
  opened,
  start,
  jobId,
  onJob,
  onClose,
}: {
  resource: string;
  params: readonly [string, string][];
  opened: boolean;
  /** The format of a job to start as the panel opens; null to show the followed job and the recent ones. */
  start: ExportFormat | null;
  jobId: number | null;
  onJob: (id: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('transfer');
  const toFailure = useFailure();
  const [startExport, { isLoading: starting }] = useStartExportMutation();
  const [failure, setFailure] = useState<Failure | null>(null);
  const [seen, setSeen] = useState('');
  const asked = useRef(false);

  useEffect(() => {
    // Once per opening (a new panel each time the menu asks).
    if (start === null || asked.current) return;
    asked.current = true;
    void startExport({ resource, format: start, params }).then((answer) => {
      if ('error' in answer) setFailure(toFailure(answer.error));
      else onJob(answer.data.id);
    });
  }, [start, resource, params, startExport, onJob, toFailure]);

  const onStatus = useCallback((job: ExportJob) => setSeen(`${job.id}:${job.status}`), []);

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('exports.title')}
      size="min(60rem, 96vw)"
      closeButtonProps={{ 'aria-label': t('exports.close') }}
    >
      <Stack>
        {starting ? (
          <Text size="sm" role="status">
            {t('exports.starting')}
          </Text>
        ) : null}
        <FailureAlert failure={failure} />
        {jobId !== null ? <ExportJobView key={jobId} id={jobId} onStatus={onStatus} /> : null}
        <RecentExports current={jobId} seen={seen} onOpen={onJob} />
      </Stack>
    </Modal>
  );
}
