import { Button } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

// The dialog (its file input and refusal table) loads when first opened, not with the list (issue #11).
const ImportDialog = lazy(async () => ({ default: (await import('./import-dialog.tsx')).ImportDialog }));

/** Import: a button that opens the import dialog (import-dialog.tsx). */
export function ImportButton({ resource }: { resource: string }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  // Mounted from its first opening on, so that it closes with its transition.
  const [used, setUsed] = useState(false);
  return (
    <>
      <Button
        size="xs"
        variant="default"
        leftSection={<IconUpload size={14} aria-hidden />}
        onClick={() => {
          setUsed(true);
          setOpened(true);
        }}
      >
        {t('actions.import')}
      </Button>
      {used ? (
        <Suspense fallback={null}>
          <ImportDialog resource={resource} opened={opened} onClose={() => setOpened(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
