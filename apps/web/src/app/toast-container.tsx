import { CloseButton, useComputedColorScheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ToastContainer } from 'react-toastify';

/** Where messages show (app.tsx mounts it with the first one, see toasts.ts). */
export function Toasts() {
  const scheme = useComputedColorScheme('light');
  const { t } = useTranslation();
  return (
    <ToastContainer
      position="bottom-right"
      theme={scheme}
      newestOnTop
      limit={4}
      closeButton={({ closeToast }) => <CloseButton size="sm" onClick={closeToast} aria-label={t('toast.close')} />}
    />
  );
}
