import { languageOfPath, withLanguage } from '../i18n/languages.ts';

/** `/sign-in?redirect=<where the user was>`, under the same language prefix. */
export function signInPathFor(pathname: string, search: string): string {
  const signIn = withLanguage('/sign-in', languageOfPath(pathname));
  return `${signIn}?redirect=${encodeURIComponent(`${pathname}${search}`)}`;
}
