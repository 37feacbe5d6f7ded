/** The languages the interface ships complete; the first is the default and the fallback. */
export const languages = ['en', 'fr'] as const;
export type Language = (typeof languages)[number];

export function isLanguage(value: string | undefined | null): value is Language {
  return (languages as readonly string[]).includes(value ?? '');
}

/** The language named by the first path segment (`/fr/deals` → `fr`), if any. */
export function languageOfPath(pathname: string): Language | undefined {
  const first = pathname.split('/')[1];
  return isLanguage(first) ? first : undefined;
}

/** The path without its language segment: `/fr/deals` → `/deals`, `/fr` → `/`. */
export function stripLanguage(pathname: string): string {
  const language = languageOfPath(pathname);
  if (!language) return pathname;
  const rest = pathname.slice(language.length + 1);
  return rest === '' ? '/' : rest;
}

/** An app path under a language prefix when there is one: (`/deals`, `fr`) → `/fr/deals`. */
export function withLanguage(path: string, language: Language | undefined): string {
  if (!language) return path;
  return path === '/' ? `/${language}` : `/${language}${path}`;
}
