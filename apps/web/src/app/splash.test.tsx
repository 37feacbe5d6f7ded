// @vitest-environment jsdom
import common from '@data-platform/shared/i18n/locales/en/common.json' with { type: 'json' };
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SPLASH_DURATION_MS, SPLASH_FADE_OUT_S } from '../constants.ts';
import { jsdomRender } from '../testing/jsdom-render.tsx';
import { Splash } from './splash.tsx';

// jsdom has no AnimationEvent, so React would listen for `webkitAnimationEnd`: give it one before react-dom loads.
vi.hoisted(() => {
  (window as { AnimationEvent?: unknown }).AnimationEvent ??= class extends Event {};
});

const { render } = jsdomRender({ en: { common } });

// The spec's timings on a clock the test moves; what a browser paints is e2e/src/web-shell.test.ts's.
describe('the splash', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const overlay = (container: HTMLElement) => container.querySelector<HTMLElement>('[data-testid="splash"]');
  const leaving = (container: HTMLElement) => overlay(container)?.className.includes('leaving') ?? false;
  const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));
  const nameFadeEnds = (container: HTMLElement) =>
    act(() => {
      container
        .querySelector('[data-testid="splash-name"]')
        ?.dispatchEvent(new Event('animationend', { bubbles: true }));
    });

  it('shows the logo and the name, leaves at 1800 ms once the name is shown, and is gone after the fade-out', () => {
    const container = render(<Splash />);
    expect(overlay(container)?.textContent).toBe('Data Platform');
    expect(overlay(container)?.querySelector('img')).not.toBeNull();
    advance(SPLASH_DURATION_MS - 100);
    nameFadeEnds(container);
    expect(leaving(container)).toBe(false);
    advance(100);
    expect(leaving(container)).toBe(true);
    advance(SPLASH_FADE_OUT_S * 1000 - 1);
    expect(overlay(container)).not.toBeNull();
    advance(1);
    expect(overlay(container)).toBeNull();
  });

  it('does not leave while the name is still fading in (frames came late), but as soon as it is shown', () => {
    const container = render(<Splash />);
    advance(SPLASH_DURATION_MS + 300);
    expect(leaving(container)).toBe(false);
    nameFadeEnds(container);
    expect(leaving(container)).toBe(true);
    advance(SPLASH_FADE_OUT_S * 1000);
    expect(overlay(container)).toBeNull();
  });

  it('leaves a second after 1800 ms when no animation ever ends (a browser that runs none)', () => {
    const container = render(<Splash />);
    advance(SPLASH_DURATION_MS + 999);
    expect(leaving(container)).toBe(false);
    advance(1);
    expect(leaving(container)).toBe(true);
    advance(SPLASH_FADE_OUT_S * 1000);
    expect(overlay(container)).toBeNull();
  });
});
