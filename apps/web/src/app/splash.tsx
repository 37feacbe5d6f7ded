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
  '--splash-fade-out': `${SPLASH_FADE_OUT_S}s`,
  '--splash-logo': `${SPLASH_LOGO_S}s`,
  '--splash-name-delay': `${SPLASH_NAME_DELAY_S}s`,
  '--splash-name-fade': `${SPLASH_NAME_FADE_S}s`,
} as CSSProperties;

/**
 * How long past SPLASH_DURATION_MS the overlay waits for the name's fade to end
 * before it leaves anyway (a browser that runs no animations sends no end).
 */
const NAME_WAIT_MS = 1000;

/**
 * The overlay of every start: the logo shrinks from large to small, the name
 * fades in, then the overlay fades out sliding down at 1800 ms, for good.
 * The name's fade ends at 1.8 s too, but CSS animations start on the first
 * frame, which a busy device paints late: so the overlay leaves at 1800 ms or
 * when the name is fully shown, whichever is later (up to NAME_WAIT_MS more),
 * never while the name is still fading in.
 * With reduced motion nothing moves; what is visible when stays the same.
 * CSS animations (splash.module.css), not an animation library: the splash is
 * on every first screen, whose JavaScript is budgeted (issue #11).
 */
export function Splash() {
  const { t } = useTranslation();
  const [timeUp, setTimeUp] = useState(false);
  const [nameShown, setNameShown] = useState(false);
  const [gone, setGone] = useState(false);
  const leaving = timeUp && nameShown;

  useEffect(() => {
    const due = setTimeout(() => setTimeUp(true), SPLASH_DURATION_MS);
    const cap = setTimeout(() => setNameShown(true), SPLASH_DURATION_MS + NAME_WAIT_MS);
    return () => {
      clearTimeout(due);
      clearTimeout(cap);
    };
  }, []);

  useEffect(() => {
    if (!leaving) return;
    const remove = setTimeout(() => setGone(true), SPLASH_FADE_OUT_S * 1000);
    return () => clearTimeout(remove);
  }, [leaving]);

  if (gone) return null;
  return (
    <div
      className={leaving ? `${classes.overlay} ${classes.leaving}` : classes.overlay}
      style={timings}
      data-testid="splash"
      aria-hidden="true"
    >
      <img className={classes.logo} src={logo} alt="" />
      <div className={classes.name} data-testid="splash-name" onAnimationEnd={() => setNameShown(true)}>
        {t('appName')}
      </div>
    </div>
  );
}
