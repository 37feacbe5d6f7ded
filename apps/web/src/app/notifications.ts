import { isRejectedWithValue } from '@reduxjs/toolkit';
import { dismissToasts, notify } from '../entity/toasts.ts';
import { failureMessage } from '../i18n/failure-message.ts';
import { i18n } from '../i18n/i18n.ts';
import { login } from '../store/auth-slice.ts';
import { isApiFailure } from '../store/http.ts';
import { type AppListeners, isSessionEnd } from '../store/store.ts';

/**
 * Every failed API call shows the server's message (in the interface's
 * language by its code); an ended session says so once. A failed sign-in
 * is said once, by the sign-in form itself; signing in takes down what the
 * sign-in screen showed (an earlier failure, "signed out").
 */
export function startNotifications(listeners: AppListeners): void {
  listeners.startListening({
    actionCreator: login.fulfilled,
    effect: () => dismissToasts(),
  });
  listeners.startListening({
    predicate: (action) => isRejectedWithValue(action) && !login.rejected.match(action),
    effect: (action) => {
      if (isSessionEnd(action)) {
        notify((toast) => toast.info(i18n.t('session.expired'), { toastId: 'session-end' }));
        return;
      }
      const failure = (action as { payload?: unknown }).payload;
      if (!isApiFailure(failure)) return;
      const message = failureMessage(failure, i18n.t, i18n.resolvedLanguage);
      notify((toast) => toast.error(message, { toastId: `${failure.code}:${message}` }));
    },
  });
}
