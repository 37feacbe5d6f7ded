import { isRejectedWithValue } from '@reduxjs/toolkit';
import { notify } from '../entity/toasts.ts';
import { i18n } from '../i18n/i18n.ts';
import { isApiFailure } from '../store/http.ts';
import { type AppListeners, isSessionEnd } from '../store/store.ts';

/** Every failed API call shows the server's message; an ended session says so once. */
export function startNotifications(listeners: AppListeners): void {
  listeners.startListening({
    predicate: (action) => isRejectedWithValue(action),
    effect: (action) => {
      if (isSessionEnd(action)) {
        notify((toast) => toast.info(i18n.t('session.expired'), { toastId: 'session-end' }));
        return;
      }
      const failure = (action as { payload?: unknown }).payload;
      if (!isApiFailure(failure)) return;
      const message = failure.status === 0 ? i18n.t('errors:network') : failure.message;
      notify((toast) => toast.error(message, { toastId: `${failure.code}:${message}` }));
    },
  });
}
