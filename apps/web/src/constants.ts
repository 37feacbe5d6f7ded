/** Business constants of the client, as the product spec gives them (section 9). */

/** How long redux-persist waits for the stored layouts before starting without them. */
export const PERSIST_TIMEOUT_MS = 5000;
/** The key the chosen language is cached under. */
export const LANGUAGE_CACHE_KEY = 'i18nextLng';
export const DEFAULT_LANGUAGE = 'en';
/** The overlay leaves after this long. */
export const SPLASH_DURATION_MS = 1800;
export const SPLASH_FADE_OUT_S = 0.5;
export const SPLASH_NAME_DELAY_S = 1.2;
export const SPLASH_NAME_FADE_S = 0.6;
export const SPLASH_LOGO_S = 1.8;
/** Countries are fetched once, in one page of this size. */
export const COUNTRIES_PAGE_SIZE = 300;
export const DEFAULT_THEME = 'system';
/** Where the theme choice is stored (`light`, `dark` or `system`); index.html reads it before the first paint. */
export const THEME_STORAGE_KEY = 'theme';
/** Where the sign-in token is kept between visits. */
export const TOKEN_STORAGE_KEY = 'token';
