import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { type RefObject, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';

/**
 * Asks before leaving a form with unsaved changes: another screen of the app
 * (React Router's blocker) or the page itself (reload, closing the tab).
 */
export function LeaveGuard({ dirty, leaving }: { dirty: boolean; leaving: RefObject<boolean> }) {
  const { t } = useTranslation(['record', 'common']);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      // Set just before a saved form moves on: the render that clears `dirty` has not happened yet.
      !leaving.current &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  const blocked = blocker.state === 'blocked';
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('record:dialog.close') }}
      opened={blocked}
      onClose={() => blocker.reset?.()}
      title={t('leave.title')}
      centered
      zIndex={400}
    >
      <Stack>
        <Text>{t('leave.text')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => blocker.reset?.()}>
            {t('leave.stay')}
          </Button>
          <Button color="red" onClick={() => blocker.proceed?.()}>
            {t('leave.discard')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
