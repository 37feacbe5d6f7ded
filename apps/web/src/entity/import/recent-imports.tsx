import { Button, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../i18n/format.ts';
import { useRecentImportsQuery } from './import-api.ts';

/**
 * The user's latest imports of this kind of record: when, which file, how it
 * ended and what it did; Open follows one again (its progress, bad rows, undo).
 */
export function RecentImports({ resource, onOpen }: { resource: string; onOpen: (id: number) => void }) {
  const { t } = useTranslation('transfer');
  const format = useFormat();
  const { data } = useRecentImportsQuery(resource, { refetchOnMountOrArgChange: true });
  const jobs = data?.data ?? [];
  if (jobs.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="recent-imports">
      <Title order={2} size="h5">
        {t('wizard.recent')}
      </Title>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('wizard.when')}</Table.Th>
            <Table.Th scope="col">{t('wizard.fileName')}</Table.Th>
            <Table.Th scope="col">{t('wizard.outcome')}</Table.Th>
            <Table.Th scope="col">{t('wizard.did')}</Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>{t('wizard.open')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {jobs.map((job) => (
            <Table.Tr key={job.id}>
              <Table.Td>{format.dateTime(job.createdAt)}</Table.Td>
              <Table.Td>
                <Text size="sm" truncate="end" maw={260} title={job.fileName}>
                  {job.fileName}
                </Text>
              </Table.Td>
              <Table.Td>{t(`wizard.status.${job.status}`)}</Table.Td>
              <Table.Td>
                {t('wizard.didCounts', {
                  created: format.number(job.created),
                  updated: format.number(job.updated),
                  failed: format.number(job.failed),
                })}
              </Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="default"
                  aria-label={t('wizard.openImport', { file: job.fileName, when: format.dateTime(job.createdAt) })}
                  onClick={() => onOpen(job.id)}
                >
                  {t('wizard.open')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
