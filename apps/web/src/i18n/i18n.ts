import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGE_CACHE_KEY } from '../constants.ts';
import { languages } from './languages.ts';

/** The namespaces the web app uses; `mail` beside them is the server's. */
export const namespaces = ['common', 'auth', 'errors', 'dashboard', 'entities', 'options', 'record', 'users'] as const;

// English ships in the first bundle (it is also every other language's fallback);
// other languages are fetched when chosen.
const english = import.meta.glob<ResourceKey>(
  ['../../../../packages/shared/src/i18n/locales/en/*.json', '!**/mail.json'],
  { eager: true, import: 'default' },
);
const others = import.meta.glob<ResourceKey>(
  ['../../../../packages/shared/src/i18n/locales/*/*.json', '!**/en/*.json', '!**/mail.json'],
  { import: 'default' },
);

const namespaceOf = (path: string) => path.slice(path.lastIndexOf('/') + 1, -'.json'.length);
const languageOf = (path: string) => path.split('/').at(-2) ?? '';

const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const path = Object.keys(others).find((p) => languageOf(p) === language && namespaceOf(p) === namespace);
    const load = path ? others[path] : undefined;
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (resource) => callback(null, resource),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

/** Starts i18next: detection by path, html tag, cookie, browser; cached in localStorage. */
export async function startI18n(): Promise<typeof i18n> {
  const resources = Object.fromEntries(
    Object.entries(english).map(([path, resource]) => [namespaceOf(path), resource]),
  );
  await i18n
    .use(lazyLocales)
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      resources: { en: resources },
      partialBundledLanguages: true,
      supportedLngs: [...languages],
      nonExplicitSupportedLngs: true,
      load: 'languageOnly',
      fallbackLng: DEFAULT_LANGUAGE,
      ns: [...namespaces],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      detection: {
        order: ['path', 'htmlTag', 'cookie', 'navigator'],
        lookupFromPathIndex: 0,
        caches: ['localStorage'],
        lookupLocalStorage: LANGUAGE_CACHE_KEY,
      },
      react: { useSuspense: false },
    });
  // The page's language follows the interface, so that the next start (htmlTag) and screen readers agree with it.
  const sync = (language: string) => {
    document.documentElement.lang = i18n.resolvedLanguage ?? language;
  };
  sync(i18n.language);
  i18n.on('languageChanged', sync);
  return i18n;
}

export { i18n };
