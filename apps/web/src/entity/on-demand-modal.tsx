import type { ModalProps } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';

const LoadedModal = lazy(async () => ({ default: (await import('./mantine-modal.ts')).Modal }));

/**
 * Mantine's Modal, whose code loads the first time the dialog opens rather
 * than with the screen that can open it: a list's first screen fetches no
 * dialog code (issue #11). Mounted from then on, so that it closes with its
 * transition and opens at once the next time.
 */
export function Modal(props: ModalProps) {
  const [used, setUsed] = useState(props.opened);
  if (props.opened && !used) setUsed(true);
  return used ? (
    <Suspense fallback={null}>
      <LoadedModal {...props} />
    </Suspense>
  ) : null;
}
