import { Button } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { loadFeatureNamespaces } from '../i18n/i18n.ts';

// The wizard (its steps, tables and texts) loads when first opened, not with the list (issue #11).
const ImportWizard = lazy(async () => {
  const [wizard] = await Promise.all([import('./import/import-wizard.tsx'), loadFeatureNamespaces('transfer')]);
  return { default: wizard.ImportWizard };
});

/** The page's address names the import job followed (`?import=<id>`): a reload shows it again. */
export const JOB_PARAM = 'import';

/**
 * Import: a button that opens the import wizard (entity/import). While a
 * job is followed its id is in the page's address, so that the wizard opens
 * on it again after a reload.
 */
export function ImportButton({ resource }: { resource: string }) {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const jobId = /^\d+$/.test(search.get(JOB_PARAM) ?? '') ? Number(search.get(JOB_PARAM)) : null;
  const [opened, setOpened] = useState(jobId !== null);
  // Mounted from its first opening on, so that it closes with its transition; a new wizard each opening.
  const [opening, setOpening] = useState(jobId !== null ? 1 : 0);
  const setJob = (id: number | null) =>
    setSearch(
      (now) => {
        const next = new URLSearchParams(now);
        if (id === null) next.delete(JOB_PARAM);
        else next.set(JOB_PARAM, String(id));
        return next;
      },
      { replace: true },
    );
  return (
    <>
      <Button
        size="xs"
        variant="default"
        leftSection={<IconUpload size={14} aria-hidden />}
        onClick={() => {
          setOpening((n) => n + 1);
          setOpened(true);
        }}
      >
        {t('actions.import')}
      </Button>
      {opening > 0 ? (
        <Suspense fallback={null}>
          <ImportWizard
            key={opening}
            resource={resource}
            opened={opened}
            jobId={jobId}
            onJob={setJob}
            onClose={() => {
              setOpened(false);
              if (jobId !== null) setJob(null);
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
