import type { ExportJob } from '@data-platform/shared/export-jobs';
import { Button, Group, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../i18n/format.ts';
import { FailureAlert } from '../import/failure.tsx';
import { useRecentExportsQuery } from './export-api.ts';
import { useDownload, useRowsText } from './export-job-view.tsx';
import { isGoing } from './export-logic.ts';

/** How often the list is read again while one of its jobs is going. */
const POLL_MS = 2000;

/**
 * The user's latest exports, of every kind of record, but the one followed
 * above (`current`): when, which file, how it ended, its rows and size, until
 * when its file is kept; Download while it is, Open to follow one. `seen`
 * changes when the followed job's status does: the list is read again.
 */
export function RecentExports({
  current,
  seen,
  onOpen,
}: {
  current: number | null;
  seen: string;
  onOpen: (id: number) => void;
}) {
  const { t } = useTranslation(['transfer', 'entities']);
  const format = useFormat();
  const rowsText = useRowsText();
  const { download, downloading, failure } = useDownload();
  const [going, setGoing] = useState(false);
  const { data, refetch } = useRecentExportsQuery(undefined, {
    refetchOnMountOrArgChange: true,
    pollingInterval: going ? POLL_MS : 0,
  });
  // The job followed above is not listed twice.
  const jobs = (data?.data ?? []).filter((job) => job.id !== current);
  const anyGoing = jobs.some(isGoing);
  if (anyGoing !== going) setGoing(anyGoing);
  useEffect(() => {
    if (seen) void refetch();
  }, [seen, refetch]);

  if (jobs.length === 0 && current !== null) return null;
  return (
    <Stack gap="xs" data-testid="recent-exports">
      <Title order={2} size="h5">
        {t('transfer:exports.recent')}
      </Title>
      {jobs.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('transfer:exports.none')}
        </Text>
      ) : (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('transfer:exports.when')}</Table.Th>
              <Table.Th scope="col">{t('transfer:exports.file')}</Table.Th>
              <Table.Th scope="col">{t('transfer:exports.state')}</Table.Th>
              <Table.Th scope="col">{t('transfer:exports.rows')}</Table.Th>
              <Table.Th scope="col">{t('transfer:exports.size')}</Table.Th>
              <Table.Th scope="col">{t('transfer:exports.expires')}</Table.Th>
              <Table.Th scope="col">
                <VisuallyHidden>{t('transfer:exports.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {jobs.map((job) => (
              <RecentRow
                key={job.id}
                job={job}
                kind={t(`entities:resources.${job.entity}.other`, { defaultValue: job.entity })}
                rows={rowsText(job)}
                size={format.fileSize(job.bytes)}
                when={format.dateTime(job.createdAt)}
                expires={
                  job.fileUrl !== null && job.expiresAt !== null
                    ? format.dateTime(job.expiresAt)
                    : job.status === 'succeeded'
                      ? t('transfer:exports.expiredShort')
                      : ''
                }
                downloading={downloading === job.id}
                onDownload={() => download(job)}
                onOpen={() => onOpen(job.id)}
              />
            ))}
          </Table.Tbody>
        </Table>
      )}
      <FailureAlert failure={failure} />
    </Stack>
  );
}

function RecentRow({
  job,
  kind,
  rows,
  size,
  when,
  expires,
  downloading,
  onDownload,
  onOpen,
}: {
  job: ExportJob;
  kind: string;
  rows: string;
  size: string;
  when: string;
  expires: string;
  downloading: boolean;
  onDownload: () => void;
  onOpen: () => void;
}) {
  const { t } = useTranslation('transfer');
  return (
    <Table.Tr>
      <Table.Td>{when}</Table.Td>
      <Table.Td>
        <Text size="sm" truncate="end" maw={240} title={job.fileName}>
          {job.fileName}
        </Text>
        <Text size="xs" c="dimmed">
          {kind}
        </Text>
      </Table.Td>
      <Table.Td>{t(`exports.status.${job.status}`)}</Table.Td>
      <Table.Td>{rows}</Table.Td>
      <Table.Td>{job.status === 'succeeded' ? size : ''}</Table.Td>
      <Table.Td>{expires}</Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap" justify="flex-end">
          {job.fileUrl !== null ? (
            <Button
              size="xs"
              leftSection={<IconDownload size={14} aria-hidden />}
              loading={downloading}
              aria-label={t('exports.downloadOf', { file: job.fileName, when })}
              onClick={onDownload}
            >
              {t('exports.download')}
            </Button>
          ) : null}
          <Button
            size="xs"
            variant="default"
            aria-label={t('exports.openExport', { file: job.fileName, when })}
            onClick={onOpen}
          >
            {t('exports.open')}
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
