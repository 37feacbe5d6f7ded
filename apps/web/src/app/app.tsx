import { MantineProvider } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router/dom';
import type { Persistor } from 'redux-persist';
import { PersistGate } from 'redux-persist/integration/react';
import { useToastsWanted } from '../entity/toasts.ts';
import type { AppStore } from '../store/store.ts';
import type { AppRouter } from './router.tsx';
import { Splash } from './splash.tsx';
import { cssVariablesResolver, theme, themeStorage } from './theme.ts';

const colorSchemeManager = themeStorage();

const Toasts = lazy(async () => ({ default: (await import('./toast-container.tsx')).Toasts }));

/** Messages' container, once a message was asked for (toasts.ts). */
function LoadedToasts() {
  return useToastsWanted() ? (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  ) : null;
}

/** Providers around the router: store, theme, the splash of every start, notifications. */
export function App({ store, persistor, router }: { store: AppStore; persistor: Persistor; router: AppRouter }) {
  return (
    <Provider store={store}>
      <MantineProvider
        theme={theme}
        colorSchemeManager={colorSchemeManager}
        defaultColorScheme="auto"
        cssVariablesResolver={cssVariablesResolver}
      >
        <Splash />
        <PersistGate persistor={persistor} loading={null}>
          <RouterProvider router={router} />
        </PersistGate>
        <LoadedToasts />
      </MantineProvider>
    </Provider>
  );
}
