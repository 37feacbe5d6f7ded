import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useRecentImportsQuery } from './import-api.ts';
import { ImportsTable } from './imports-table.tsx';

/**
 * The user's latest imports of this kind of record: when, which file, how it
 * ended and what it did; Open follows one again (its progress, bad rows, undo).
 */
export function RecentImports({ resource, onOpen }: { resource: string; onOpen: (id: number) => void }) {
  const { t } = useTranslation('transfer');
  const { data } = useRecentImportsQuery(resource, { refetchOnMountOrArgChange: true });
  const jobs = data?.data ?? [];
  if (jobs.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="recent-imports">
      <Title order={2} size="h5">
        {t('wizard.recent')}
      </Title>
      <ImportsTable jobs={jobs} openingOf={(job) => ({ onClick: () => onOpen(job.id) })} />
    </Stack>
  );
}
