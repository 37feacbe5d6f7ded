import { useSyncExternalStore } from 'react';
import type { toast as Toast } from 'react-toastify';

/**
 * react-toastify, loaded with the first message rather than with the first
 * screen: the sign-in screen shows none unless something happens (issue #11).
 * A message asked for before the container mounts waits in react-toastify's
 * own queue. The signed-in shell asks for it at once (its pages call `toast`
 * directly).
 */
let loading: Promise<typeof Toast> | undefined;
const listeners = new Set<() => void>();

export function loadToasts(): Promise<typeof Toast> {
  if (!loading) {
    loading = import('react-toastify').then((module) => module.toast);
    for (const listener of listeners) listener();
  }
  return loading;
}

/** Shows a message once react-toastify has loaded. */
export function notify(show: (toast: typeof Toast) => void): void {
  void loadToasts().then(show);
}

/** Takes every message down, if any was ever shown (react-toastify is not loaded for this). */
export function dismissToasts(): void {
  void loading?.then((toast) => toast.dismiss());
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Whether messages were asked for: the container mounts from then on. */
export function useToastsWanted(): boolean {
  return useSyncExternalStore(subscribe, () => loading !== undefined);
}
