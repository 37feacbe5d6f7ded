import { Button, Menu } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useAppSelector } from '../store/hooks.ts';
import { queryString } from '../store/http.ts';

const formats = ['csv', 'xlsx'] as const;

/** The name the server gives the file (`companies-2026-11-23.csv`), else one made here. */
function fileNameOf(response: Response, fallback: string): string {
  return /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallback;
}

/**
 * Export: the list as the user sees it (its columns, filters, sort and
 * search; every matching row, not just those loaded) as CSV or Excel.
 */
export function ExportMenu({ resource, params }: { resource: string; params: readonly [string, string][] }) {
  const { t } = useTranslation();
  const token = useAppSelector((state) => state.auth.token);
  const [working, setWorking] = useState(false);

  const download = async (format: (typeof formats)[number]) => {
    setWorking(true);
    try {
      const query = queryString([...params, ['format', format]]);
      const response = await fetch(`/api/v1/${resource}/export?${query}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
        toast.error(body?.error?.message ?? t('export.failed'));
        return;
      }
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = fileNameOf(response, `${resource}.${format}`);
      link.click();
      URL.revokeObjectURL(url);
    } catch {
      toast.error(t('export.failed'));
    } finally {
      setWorking(false);
    }
  };

  return (
    <Menu position="bottom-end" withinPortal transitionProps={{ duration: 0 }}>
      <Menu.Target>
        <Button size="xs" variant="default" loading={working} leftSection={<IconDownload size={14} aria-hidden />}>
          {t('actions.export')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {formats.map((format) => (
          <Menu.Item key={format} onClick={() => void download(format)}>
            {t(`export.${format}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
