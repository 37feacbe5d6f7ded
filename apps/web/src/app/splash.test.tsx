// @vitest-environment jsdom
import common from '@data-platform/shared/i18n/locales/en/common.json' with { type: 'json' };
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsdomRender } from '../testing/jsdom-render.tsx';
import { SPLASH_REMOVED_ANYWAY_MS, Splash } from './splash.tsx';

// jsdom has no AnimationEvent, so React would listen for `webkitAnimationEnd`: give it one before react-dom loads.
vi.hoisted(() => {
  (window as { AnimationEvent?: unknown }).AnimationEvent ??= class extends Event {};
});

const { render } = jsdomRender({ en: { common } });

// What a browser paints, and when, is e2e/src/web-shell.test.ts's and `npm run bench:splash`'s; here, when it goes.
describe('the splash', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const overlay = (container: HTMLElement) => container.querySelector<HTMLElement>('[data-testid="splash"]');
  const animationEnds = (element: Element | null | undefined) =>
    act(() => {
      element?.dispatchEvent(new Event('animationend', { bubbles: true }));
    });

  it('shows the logo and the name, and is removed when its own leaving ends, not when the name or logo end', () => {
    const container = render(<Splash />);
    expect(overlay(container)?.textContent).toBe('Data Platform');
    const logo = overlay(container)?.querySelector('img');
    expect(logo).not.toBeNull();
    animationEnds(logo);
    animationEnds(container.querySelector('[data-testid="splash-name"]'));
    expect(overlay(container)).not.toBeNull();
    animationEnds(overlay(container));
    expect(overlay(container)).toBeNull();
  });

  it('is removed a second after it would have left when no animation ever ends (a browser that runs none)', () => {
    const container = render(<Splash />);
    act(() => vi.advanceTimersByTime(SPLASH_REMOVED_ANYWAY_MS - 1));
    expect(overlay(container)).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(overlay(container)).toBeNull();
  });
});
