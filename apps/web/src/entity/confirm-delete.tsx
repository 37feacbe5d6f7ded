import { Button, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from './on-demand-modal.tsx';

/** "Delete X?": a dialog that says what deleting does, with Cancel and a red Delete. */
export function ConfirmDelete({
  opened,
  title,
  children,
  working = false,
  onConfirm,
  onCancel,
}: {
  opened: boolean;
  title: string;
  /** What deleting does, in a sentence or two. */
  children: ReactNode;
  working?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('actions.close') }}
      opened={opened}
      onClose={working ? () => undefined : onCancel}
      title={title}
      centered
    >
      <Stack>
        <Text>{children}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={working}>
            {t('actions.cancel')}
          </Button>
          <Button color="red" loading={working} onClick={onConfirm}>
            {t('actions.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
