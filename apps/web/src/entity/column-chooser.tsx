import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { Button, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconColumns } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from './on-demand-modal.tsx';

// The lists are fetched when the dialog first opens (the signed-in list's JavaScript budget, issue #11).
const ColumnLists = lazy(async () => ({ default: (await import('./column-lists.tsx')).ColumnLists }));

/** The list's "Columns" button and dialog: which fields show, in which order. */
export function ColumnChooser({
  entity,
  shows,
  onChange,
}: {
  entity: EntityDescription;
  shows: string[];
  onChange: (shows: string[]) => void;
}) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button variant="default" size="xs" leftSection={<IconColumns size={14} aria-hidden />} onClick={open}>
        {t('columns.open')}
      </Button>
      <Modal
        closeButtonProps={{ 'aria-label': t('actions.close') }}
        opened={opened}
        onClose={close}
        title={t('columns.title')}
        size="lg"
      >
        <Suspense fallback={null}>
          <ColumnLists entity={entity} shows={shows} onChange={onChange} />
        </Suspense>
        <Group justify="flex-end" mt="md">
          <Button onClick={close}>{t('columns.done')}</Button>
        </Group>
      </Modal>
    </>
  );
}
