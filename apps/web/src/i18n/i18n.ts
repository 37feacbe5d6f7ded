import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGE_CACHE_KEY } from '../constants.ts';
import { languages } from './languages.ts';

/** The namespaces the web app uses; `mail` beside them is the server's. */
export const namespaces = [
  'common',
  'auth',
  'errors',
  'dashboard',
  'entities',
  'options',
  'record',
  'users',
  'grid',
  'totals',
  'activity',
  'funds',
  'transfer',
  'pipeline',
  'history',
  'search',
] as const;

/**
 * What the screens before sign-in use (the splash, the account screens, the
 * error page): English ships with them in the first bundle, as it is also
 * every language's fallback. Everything else, the other namespaces and every
 * other language, is fetched per language and namespace when needed (issue #11:
 * the first screen's JavaScript is budgeted).
 */
const firstScreenNamespaces = ['common', 'auth', 'errors'] as const;
const firstScreen = import.meta.glob<ResourceKey>(
  [
    '../../../../packages/shared/src/i18n/locales/en/common.json',
    '../../../../packages/shared/src/i18n/locales/en/auth.json',
    '../../../../packages/shared/src/i18n/locales/en/errors.json',
  ],
  { eager: true, import: 'default' },
);
const onDemand = import.meta.glob<ResourceKey>(
  [
    '../../../../packages/shared/src/i18n/locales/*/*.json',
    '!**/mail.json',
    '!**/en/common.json',
    '!**/en/auth.json',
    '!**/en/errors.json',
  ],
  { import: 'default' },
);

const namespaceOf = (path: string) => path.slice(path.lastIndexOf('/') + 1, -'.json'.length);
const languageOf = (path: string) => path.split('/').at(-2) ?? '';

const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const path = Object.keys(onDemand).find((p) => languageOf(p) === language && namespaceOf(p) === namespace);
    const load = path ? onDemand[path] : undefined;
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

/**
 * The namespaces of one feature's screens (the dashboard's activity, the fund
 * analytics, import and export): fetched by the route that shows them
 * (`loadFeatureNamespaces` in its lazy loader), not with every signed-in
 * screen, so that a list does not fetch them (the signed-in list's budget).
 */
const featureNamespaces: readonly Namespace[] = ['activity', 'funds', 'transfer', 'pipeline', 'history', 'search'];
type Namespace = (typeof namespaces)[number];

/** Fetches the namespaces of the signed-in screens, in the current language and its fallback. */
export async function loadSignedInNamespaces(): Promise<void> {
  await i18n.loadNamespaces(namespaces.filter((namespace) => !featureNamespaces.includes(namespace)));
}

/** Fetches a feature's namespaces before its screen renders (no key shows untranslated meanwhile). */
export async function loadFeatureNamespaces(...names: Namespace[]): Promise<void> {
  await i18n.loadNamespaces(names);
}

/** Starts i18next: detection by path, html tag, cookie, browser; cached in localStorage. */
export async function startI18n(): Promise<typeof i18n> {
  const resources = Object.fromEntries(
    Object.entries(firstScreen).map(([path, resource]) => [namespaceOf(path), resource]),
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
      ns: [...firstScreenNamespaces],
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
