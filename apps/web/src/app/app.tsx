import { CloseButton, MantineProvider, useComputedColorScheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router/dom';
import { ToastContainer } from 'react-toastify';
import type { Persistor } from 'redux-persist';
import { PersistGate } from 'redux-persist/integration/react';
import type { AppStore } from '../store/store.ts';
import type { AppRouter } from './router.tsx';
import { Splash } from './splash.tsx';
import { cssVariablesResolver, theme, themeStorage } from './theme.ts';

const colorSchemeManager = themeStorage();

function Toasts() {
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
        <Toasts />
      </MantineProvider>
    </Provider>
  );
}
