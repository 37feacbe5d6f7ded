import type { ImportJob } from '@data-platform/shared/imports';
import { Button, Table, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormat } from '../../i18n/format.ts';

/** Where a job's Open goes: the wizard follows it in place, or a list's address opens the wizard on it. */
export type ImportOpening = { onClick: () => void } | { to: string };

/**
 * Imports as a table: when, (the kind of record,) which file, how it ended
 * and what it did, and Open to follow one again (its result, bad rows, undo).
 * The wizard's latest imports and the Imports screen both show it; a job
 * without an opening (no list of its records for this user) has no Open.
 */
export function ImportsTable({
  jobs,
  withRecordType = false,
  openingOf,
}: {
  jobs: readonly ImportJob[];
  /** A column naming each job's kind of record, for a table of several kinds. */
  withRecordType?: boolean;
  openingOf: (job: ImportJob) => ImportOpening | undefined;
}) {
  const { t } = useTranslation(['transfer', 'entities']);
  const format = useFormat();
  return (
    <Table striped>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('wizard.when')}</Table.Th>
          {withRecordType ? <Table.Th scope="col">{t('wizard.recordType')}</Table.Th> : null}
          <Table.Th scope="col">{t('wizard.fileName')}</Table.Th>
          <Table.Th scope="col">{t('wizard.outcome')}</Table.Th>
          <Table.Th scope="col">{t('wizard.did')}</Table.Th>
          <Table.Th scope="col">
            <VisuallyHidden>{t('wizard.open')}</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {jobs.map((job) => {
          const when = format.dateTime(job.createdAt);
          const opening = openingOf(job);
          const open = {
            size: 'xs',
            variant: 'default',
            'aria-label': t('wizard.openImport', { file: job.fileName, when }),
            children: t('wizard.open'),
          } as const;
          return (
            <Table.Tr key={job.id}>
              <Table.Td>{when}</Table.Td>
              {withRecordType ? (
                <Table.Td>{t(`entities:resources.${job.entity}.other`, { defaultValue: job.entity })}</Table.Td>
              ) : null}
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
                {opening === undefined ? null : 'to' in opening ? (
                  <Button component={Link} to={opening.to} {...open} />
                ) : (
                  <Button onClick={opening.onClick} {...open} />
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
