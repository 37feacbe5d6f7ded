import { useCallback } from 'react';
import { useLocation } from 'react-router';
import { languageOfPath, withLanguage } from './languages.ts';

/** Turns an app path into one under the current address's language prefix (`/deals` → `/fr/deals` on `/fr/...`). */
export function useLocalizedPath(): (path: string) => string {
  const { pathname } = useLocation();
  const language = languageOfPath(pathname);
  return useCallback((path: string) => withLanguage(path, language), [language]);
}
