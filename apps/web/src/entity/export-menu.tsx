import { type ExportFormat, exportFormats } from '@data-platform/shared/export-formats';
import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import { loadFeatureNamespaces } from '../i18n/i18n.ts';
import { isApiFailure } from '../store/http.ts';
import { OnDemandMenu } from './on-demand-menu.tsx';
import { useExportMutation } from './record-api.ts';

// The panel of background exports (its job view, list and texts) loads when first opened, not with the list.
const ExportJobsModal = lazy(async () => {
  const [panel] = await Promise.all([import('./export/export-jobs-modal.tsx'), loadFeatureNamespaces('transfer')]);
  return { default: panel.ExportJobsModal };
});

/** The page's address names the export job followed (`?export=<id>`): a reload shows it again. */
const JOB_PARAM = 'export';

/**
 * Export: the list as the user sees it (its columns, filters, sort and
 * search; every matching row, not just those loaded) as CSV or Excel,
 * downloaded now, or written in the background by a job whose progress a
 * panel shows, with the user's recent exports and their downloads.
 */
export function ExportMenu({ resource, params }: { resource: string; params: readonly [string, string][] }) {
  const { t } = useTranslation();
  const [exportFile, { isLoading: working }] = useExportMutation(resource);
  const [search, setSearch] = useSearchParams();
  const jobId = /^\d+$/.test(search.get(JOB_PARAM) ?? '') ? Number(search.get(JOB_PARAM)) : null;
  const [opened, setOpened] = useState(jobId !== null);
  // Mounted from its first opening on (it closes with its transition); a new panel each opening.
  const [panel, setPanel] = useState({ opening: jobId !== null ? 1 : 0, start: null as ExportFormat | null });

  const download = async (format: ExportFormat) => {
    const result = await exportFile({ params, format });
    if (!('error' in result)) return;
    // The server's reason when it gave one; no answer at all is said plainly.
    const { error } = result;
    toast.error(isApiFailure(error) && error.status !== 0 ? error.message : t('export.failed'));
  };
  const setJob = useCallback(
    (id: number | null) =>
      setSearch(
        (now) => {
          const next = new URLSearchParams(now);
          if (id === null) next.delete(JOB_PARAM);
          else next.set(JOB_PARAM, String(id));
          return next;
        },
        { replace: true },
      ),
    [setSearch],
  );
  const openPanel = (start: ExportFormat | null) => {
    // A new job is followed once started; until then the panel shows none.
    if (start !== null) setJob(null);
    setPanel((now) => ({ opening: now.opening + 1, start }));
    setOpened(true);
  };

  return (
    <>
      <OnDemandMenu
        position="bottom-end"
        withinPortal
        transitionProps={{ duration: 0 }}
        target={
          <Button size="xs" variant="default" loading={working} leftSection={<IconDownload size={14} aria-hidden />}>
            {t('actions.export')}
          </Button>
        }
      >
        {(menu) => (
          <>
            <menu.Label>{t('export.now')}</menu.Label>
            {exportFormats.map((format) => (
              <menu.Item key={format} onClick={() => void download(format)}>
                {t(`export.${format}`)}
              </menu.Item>
            ))}
            <menu.Divider />
            <menu.Label>{t('export.background')}</menu.Label>
            {exportFormats.map((format) => (
              <menu.Item key={`${format}-job`} onClick={() => openPanel(format)}>
                {t(`export.${format}Background`)}
              </menu.Item>
            ))}
            <menu.Divider />
            <menu.Item onClick={() => openPanel(null)}>{t('export.recent')}</menu.Item>
          </>
        )}
      </OnDemandMenu>
      {panel.opening > 0 ? (
        <Suspense fallback={null}>
          <ExportJobsModal
            key={panel.opening}
            resource={resource}
            params={params}
            opened={opened}
            start={panel.start}
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
