import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { isApiFailure } from '../store/http.ts';
import { OnDemandMenu } from './on-demand-menu.tsx';
import { useExportMutation } from './record-api.ts';

const formats = ['csv', 'xlsx'] as const;

/**
 * Export: the list as the user sees it (its columns, filters, sort and
 * search; every matching row, not just those loaded) as CSV or Excel.
 */
export function ExportMenu({ resource, params }: { resource: string; params: readonly [string, string][] }) {
  const { t } = useTranslation();
  const [exportFile, { isLoading: working }] = useExportMutation(resource);

  const download = async (format: (typeof formats)[number]) => {
    const result = await exportFile({ params, format });
    if (!('error' in result)) return;
    // The server's reason when it gave one; no answer at all is said plainly.
    const { error } = result;
    toast.error(isApiFailure(error) && error.status !== 0 ? error.message : t('export.failed'));
  };

  return (
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
      {(menu) =>
        formats.map((format) => (
          <menu.Item key={format} onClick={() => void download(format)}>
            {t(`export.${format}`)}
          </menu.Item>
        ))
      }
    </OnDemandMenu>
  );
}
