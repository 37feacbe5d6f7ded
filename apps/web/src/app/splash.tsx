import { AnimatePresence, domAnimation, LazyMotion, m, useReducedMotion } from 'motion/react';
import { useEffect, useState } from 'react';
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

/**
 * The overlay of every start: the logo shrinks from large to small, the name
 * fades in, then the overlay fades out sliding down at 1800 ms, for good.
 * With reduced motion nothing moves; what is visible when stays the same.
 */
export function Splash() {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(true);
  const still = useReducedMotion() ?? false;

  useEffect(() => {
    const timer = setTimeout(() => setVisible(false), SPLASH_DURATION_MS);
    return () => clearTimeout(timer);
  }, []);

  return (
    <LazyMotion features={domAnimation} strict>
      <AnimatePresence>
        {visible && (
          <m.div
            key="splash"
            className={classes.overlay}
            data-testid="splash"
            aria-hidden="true"
            initial={{ opacity: 1, y: 0 }}
            exit={still ? { opacity: 0 } : { opacity: 0, y: 48 }}
            transition={{ duration: SPLASH_FADE_OUT_S, ease: 'easeIn' }}
          >
            <m.img
              className={classes.logo}
              src={logo}
              alt=""
              initial={still ? false : { scale: 2 }}
              animate={{ scale: 1 }}
              transition={{ duration: SPLASH_LOGO_S, ease: 'easeOut' }}
            />
            <m.div
              className={classes.name}
              data-testid="splash-name"
              initial={{ opacity: 0 }}
              animate={{ opacity: 1 }}
              transition={{ delay: SPLASH_NAME_DELAY_S, duration: SPLASH_NAME_FADE_S }}
            >
              {t('appName')}
            </m.div>
          </m.div>
        )}
      </AnimatePresence>
    </LazyMotion>
  );
}
