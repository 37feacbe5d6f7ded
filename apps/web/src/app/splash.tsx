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

type Stage = 'shown' | 'leaving' | 'gone';

/**
 * The overlay of every start: the logo shrinks from large to small, the name
 * fades in, then the overlay fades out sliding down at 1800 ms, for good.
 * With reduced motion nothing moves; what is visible when stays the same.
 * CSS animations (splash.module.css), not an animation library: the splash is
 * on every first screen, whose JavaScript is budgeted (issue #11).
 */
export function Splash() {
  const { t } = useTranslation();
  const [stage, setStage] = useState<Stage>('shown');

  useEffect(() => {
    const leave = setTimeout(() => setStage('leaving'), SPLASH_DURATION_MS);
    const remove = setTimeout(() => setStage('gone'), SPLASH_DURATION_MS + SPLASH_FADE_OUT_S * 1000);
    return () => {
      clearTimeout(leave);
      clearTimeout(remove);
    };
  }, []);

  if (stage === 'gone') return null;
  return (
    <div
      className={stage === 'leaving' ? `${classes.overlay} ${classes.leaving}` : classes.overlay}
      style={timings}
      data-testid="splash"
      aria-hidden="true"
    >
      <img className={classes.logo} src={logo} alt="" />
      <div className={classes.name} data-testid="splash-name">
        {t('appName')}
      </div>
    </div>
  );
}
