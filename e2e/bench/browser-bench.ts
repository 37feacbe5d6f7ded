import os from 'node:os';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../src/browser.ts';
import { newPage, openSignedIn } from '../src/web.ts';
import { BENCH_EMAIL, BENCH_PASSWORD, startBenchServer } from './bench-server.ts';

/** Milliseconds to a tenth, as the results give them. */
export const round = (n: number) => Math.round(n * 10) / 10;
/** The value below which the share `p` of `sorted` (ascending) falls, rounded. */
export const percentile = (sorted: number[], p: number) =>
  round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);

export interface BrowserBench {
  url: string;
  browser: Browser;
  page: Page;
  /** The machine's load average over the last minute before the bench started: a busy machine slows frames. */
  loadBefore: number;
  /** Opens `path` of the app and signs in as the bench's administrator. */
  signIn(path: string): Promise<void>;
  /** Closes Chromium, then the server. */
  close(): Promise<void>;
}

/**
 * A browser bench's start: a real server (`startBenchServer(name)`), and a
 * page of `viewport` in Chromium, not signed in yet, so that the bench can
 * route the answers it makes itself before the app first asks for them.
 */
export async function openBrowserBench(
  name: string,
  viewport: { width: number; height: number },
): Promise<BrowserBench> {
  const loadBefore = os.loadavg()[0] ?? 0;
  const server = await startBenchServer(name);
  const browser = await launchChromium();
  const close = async () => {
    await browser.close();
    await server.close();
  };
  try {
    const page = await newPage(browser, { viewport });
    return {
      url: server.url,
      browser,
      page,
      loadBefore,
      signIn: (path) => openSignedIn(page, `${server.url}${path}`, BENCH_EMAIL, BENCH_PASSWORD),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

// Scripts run in the page are passed as text: tsx would wrap named functions in a helper the page does not have.

/** Scrolls an element from top to bottom (or for `frames` frames), a fixed distance per frame; answers each frame's duration. */
const scrollScript = (selector: string, px: number, frames: number) => `new Promise((resolve) => {
  const scroller = document.querySelector(${JSON.stringify(selector)});
  const times = [];
  scroller.scrollTop = 0;
  let last = performance.now();
  const tick = (now) => {
    times.push(now - last);
    last = now;
    if (times.length > ${frames} || scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1) return resolve(times.slice(1));
    scroller.scrollTop += ${px};
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})`;

/**
 * Chromium's own accounts of the page's main thread (the DevTools protocol's
 * Performance metrics), kept from now on, and a scroll measured with them.
 */
export async function scrollMeter(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () =>
    Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  return {
    /**
     * Scrolls the element of `selector` from top to bottom (or for `frames`
     * frames), `px` a frame. Answers each frame's duration, a metric's
     * milliseconds per frame (`perFrame('ScriptDuration')`), and with
     * `profile` the CPU profile taken while it scrolled.
     */
    async scroll(selector: string, px: number, { frames = Number.POSITIVE_INFINITY, profile = false } = {}) {
      const before = await metrics();
      if (profile) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.start');
      }
      const times = (await page.evaluate(scrollScript(selector, px, frames))) as number[];
      const after = await metrics();
      const cpuProfile = profile ? (await cdp.send('Profiler.stop')).profile : undefined;
      const perFrame = (name: string) => round(((after[name] ?? 0) - (before[name] ?? 0)) * (1000 / times.length));
      // A page that is not cross-origin isolated reads a clock coarsened to 100 µs with random jitter: frames of
      // 16.67 ms then read 16.6, 16.7 or 16.8. Isolated (the server's COOP and COEP), it reads to 5 µs.
      const isolated = (await page.evaluate('crossOriginIsolated')) as boolean;
      const clock = isolated ? '5 µs (cross-origin isolated)' : '100 µs with jitter (not cross-origin isolated)';
      return { frames: times, perFrame, profile: cpuProfile, clock };
    },
  };
}
