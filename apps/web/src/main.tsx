import '@fontsource-variable/inter/wght.css';
import '@mantine/core/styles.css';
// As a stylesheet: vite.config.ts gives the app react-toastify's entry without its injected styles.
import 'react-toastify/ReactToastify.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { startNotifications } from './app/notifications.ts';
import { createAppRouter } from './app/router.tsx';
import { startI18n } from './i18n/i18n.ts';
import { createStore } from './store/store.ts';

await startI18n();
const { store, persistor, listeners, loadDataAreas } = createStore();
startNotifications(listeners);
const router = createAppRouter(store, loadDataAreas);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App store={store} persistor={persistor} router={router} />
    </StrictMode>,
  );
}
