import {
  type CSSVariablesResolver,
  createTheme,
  type MantineColorScheme,
  type MantineColorSchemeManager,
} from '@mantine/core';
import { DEFAULT_THEME, THEME_STORAGE_KEY } from '../constants.ts';

export const themeModes = ['light', 'dark', 'system'] as const;
export type ThemeMode = (typeof themeModes)[number];

const isThemeMode = (value: unknown): value is ThemeMode => (themeModes as readonly unknown[]).includes(value);
export const toColorScheme = (mode: ThemeMode): MantineColorScheme => (mode === 'system' ? 'auto' : mode);
export const toThemeMode = (scheme: MantineColorScheme): ThemeMode => (scheme === 'auto' ? 'system' : scheme);

/** The stored theme choice, or the default (`system`) when none or an unknown one is stored. */
export function storedThemeMode(): ThemeMode {
  try {
    const value = localStorage.getItem(THEME_STORAGE_KEY);
    return isThemeMode(value) ? value : DEFAULT_THEME;
  } catch {
    return DEFAULT_THEME;
  }
}

/**
 * Keeps the choice in localStorage as `light`, `dark` or `system` (index.html
 * reads the same key before the first paint), and follows changes made in other tabs.
 */
export function themeStorage(): MantineColorSchemeManager {
  let listener: ((event: StorageEvent) => void) | undefined;
  return {
    get: () => toColorScheme(storedThemeMode()),
    set: (scheme) => {
      try {
        localStorage.setItem(THEME_STORAGE_KEY, toThemeMode(scheme));
      } catch {
        // Without storage the choice lasts as long as the page.
      }
    },
    subscribe: (onUpdate) => {
      listener = (event) => {
        if (event.storageArea === localStorage && event.key === THEME_STORAGE_KEY) {
          onUpdate(toColorScheme(isThemeMode(event.newValue) ? event.newValue : DEFAULT_THEME));
        }
      };
      window.addEventListener('storage', listener);
    },
    unsubscribe: () => {
      if (listener) window.removeEventListener('storage', listener);
      listener = undefined;
    },
    clear: () => localStorage.removeItem(THEME_STORAGE_KEY),
  };
}

export const theme = createTheme({
  fontFamily: "'Inter Variable', system-ui, sans-serif",
  headings: { fontFamily: "'Inter Variable', system-ui, sans-serif" },
  primaryColor: 'indigo',
  // Filled buttons carry white text: shade 8 keeps it at 4.5:1 (WCAG AA) in both schemes (shade 4 gave 3:1 in
  // dark). Links and other coloured text in dark use shade 4 whatever this says.
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
});

/**
 * Secondary ("dimmed") text and field errors with a 4.5:1 contrast on the page, cards and inputs, in both
 * schemes (Mantine's own, red 6 in light and red 8 in dark, give about 3.2:1 and 3.4:1).
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: { '--mantine-color-dimmed': resolved.colors.gray[7], '--mantine-color-error': resolved.colors.red[9] },
  dark: { '--mantine-color-dimmed': resolved.colors.dark[1], '--mantine-color-error': resolved.colors.red[4] },
});
