import { type CSSProperties, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  SPLASH_DURATION_MS,
  SPLASH_FADE_OUT_S,
  SPLASH_LOGO_S,
  SPLASH_NAME_DELAY_S,
  SPLASH_NAME_FADE_S,
} from '../constants.ts';
import logo from './logo.svg';
import classes from './splash.module.css';

/** The stylesheet's timings, from the spec's constants. */
const timings = {
  '--splash-duration': `${SPLASH_DURATION_MS}ms`,
  '--splash-fade-out': `${SPLASH_FADE_OUT_S}s`,
  '--splash-logo': `${SPLASH_LOGO_S}s`,
  '--splash-name-delay': `${SPLASH_NAME_DELAY_S}s`,
  '--splash-name-fade': `${SPLASH_NAME_FADE_S}s`,
} as CSSProperties;

/**
 * When the overlay is removed in a browser that runs no animations (and so
 * sends no end): a second after it would have left.
 */
export const SPLASH_REMOVED_ANYWAY_MS = SPLASH_DURATION_MS + SPLASH_FADE_OUT_S * 1000 + 1000;

/**
 * The overlay of every start: the logo shrinks from large to small, the name
 * fades in, then the overlay fades out sliding down at 1800 ms, for good.
 * Every step is a CSS animation on one timeline (splash.module.css), the
 * leaving too: a busy device that paints the first frame late delays them
 * all alike, so the name is always fully shown before the overlay leaves (a
 * timer here would run on another clock). The overlay is removed when its
 * leaving ends. With reduced motion nothing moves; what is visible when
 * stays the same. Not an animation library: the splash is on every first
 * screen, whose JavaScript is budgeted (issue #11).
 */
export function Splash() {
  const { t } = useTranslation();
  const [gone, setGone] = useState(false);

  useEffect(() => {
    const removed = setTimeout(() => setGone(true), SPLASH_REMOVED_ANYWAY_MS);
    return () => clearTimeout(removed);
  }, []);

  if (gone) return null;
  return (
    <div
      className={classes.overlay}
      style={timings}
      data-testid="splash"
      aria-hidden="true"
      // The overlay's own animation (its leaving), not the logo's or the name's, which bubble here.
      onAnimationEnd={(event) => event.target === event.currentTarget && setGone(true)}
    >
      <img className={classes.logo} src={logo} alt="" />
      <div className={classes.name} data-testid="splash-name">
        {t('appName')}
      </div>
    </div>
  );
}
