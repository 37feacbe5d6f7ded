import type { Page } from 'playwright-core';

/** What the page records of its splash, frame by frame, in ms since the overlay appeared. */
export interface SplashTimeline {
  shown: number | null;
  gone: number | null;
  nameStart: number | null;
  nameFull: number | null;
  leaveStart: number | null;
  logoScales: number[];
  overlayShifts: number[];
}

/**
 * Samples the splash once per animation frame into `window.splash`. Text, not a
 * function: run through tsx (the benchmarks), a function would carry a helper
 * (`__name`) the page does not have.
 */
const recorder = `(() => {
  const timeline = { shown: null, gone: null, nameStart: null, nameFull: null, leaveStart: null, logoScales: [], overlayShifts: [] };
  window.splash = timeline;
  const tick = () => {
    const now = performance.now();
    const overlay = document.querySelector('[data-testid="splash"]');
    if (!overlay) {
      if (timeline.shown !== null) {
        timeline.gone = now - timeline.shown;
        return;
      }
    } else {
      timeline.shown ??= now;
      const at = now - timeline.shown;
      const name = overlay.querySelector('[data-testid="splash-name"]');
      const logo = overlay.querySelector('img');
      const nameOpacity = name ? Number(getComputedStyle(name).opacity) : 0;
      if (nameOpacity > 0.05) timeline.nameStart ??= at;
      if (nameOpacity >= 0.99) timeline.nameFull ??= at;
      if (Number(getComputedStyle(overlay).opacity) < 0.99) timeline.leaveStart ??= at;
      if (logo) timeline.logoScales.push(new DOMMatrix(getComputedStyle(logo).transform).a);
      timeline.overlayShifts.push(new DOMMatrix(getComputedStyle(overlay).transform).f);
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

/** Records the splash of the next page load (see `timelineOf`). */
export async function recordSplash(page: Page): Promise<void> {
  await page.addInitScript(recorder);
}

/** The timeline `recordSplash` made. */
export const timelineOf = (page: Page): Promise<SplashTimeline> => page.evaluate('window.splash');
