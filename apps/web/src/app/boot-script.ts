import { LANGUAGE_CACHE_KEY, THEME_STORAGE_KEY } from '../constants.ts';
import { languages } from '../i18n/languages.ts';

/**
 * The script index.html runs before the first paint: it applies the stored
 * theme (no flash of the wrong one) and sets <html lang> to the language the
 * address names or the cached one, which i18next's htmlTag detection then reads.
 */
export function bootScript(): string {
  return `(function () {
  var root = document.documentElement;
  try {
    var mode = localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});
    var dark = mode === 'dark' || (mode !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches);
    root.setAttribute('data-mantine-color-scheme', dark ? 'dark' : 'light');
  } catch (e) {}
  var supported = ${JSON.stringify(languages)};
  var fromPath = location.pathname.split('/')[1];
  var cached = null;
  try { cached = (localStorage.getItem(${JSON.stringify(LANGUAGE_CACHE_KEY)}) || '').split('-')[0]; } catch (e) {}
  if (supported.indexOf(fromPath) >= 0) root.lang = fromPath;
  else if (supported.indexOf(cached) >= 0) root.lang = cached;
})();`;
}
