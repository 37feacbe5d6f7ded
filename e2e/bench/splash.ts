/**
 * The splash's timings, in Chromium (the spec: visible 1,800 ms, then a
 * 0.5 s fade-out; the name fades in from 1.2 s).
 *
 *   npm run bench:splash                                  # builds the web app, then 5 loads, with and without reduced motion
 *   node --import tsx e2e/bench/splash.ts --runs 10      # on the existing build (or WEB_DIR)
 *
 * A benchmark, not a test: frames come late on a busy machine, so these
 * windows hold on a quiet one. The e2e test (web-shell.test.ts) checks the
 * sequence only. The real server serves the built app (apps/web/dist, or
 * WEB_DIR); each load is a new page that records, frame by frame, when the
 * name starts to show and is fully shown, when the overlay starts to leave
 * and when it is gone. Prints each load and the medians, and exits 1 when a
 * median is outside its window.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { configFromEnv } from '@data-platform/server/config';
import { openDatabase } from '@data-platform/server/db/client';
import { buildApp } from '@data-platform/server/http/app';
import { launchChromium } from '../src/browser.ts';
import { recordSplash, type SplashTimeline, timelineOf } from '../src/splash-timeline.ts';
import { newPage } from '../src/web.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1 || runs > 100) {
  console.error('Usage: node --import tsx e2e/bench/splash.ts [--runs 5] (1 to 100)');
  process.exit(2);
}

type Moment = 'nameStart' | 'nameFull' | 'leaveStart' | 'gone';
/** Where each moment belongs, in ms after the overlay appeared: the spec's times, with a frame or two of slack. */
const windows: Record<Moment, [number, number]> = {
  nameStart: [1100, 1600],
  nameFull: [1700, 2200],
  leaveStart: [1750, 2200],
  gone: [2200, 2800],
};

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dp-bench-splash-'));
const database = await openDatabase({});
const config = configFromEnv({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  ...(process.env.WEB_DIR ? { WEB_DIR: process.env.WEB_DIR } : {}),
});
const app = await buildApp({ config, database, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const browser = await launchChromium();

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN;
let outside = 0;
try {
  for (const reducedMotion of ['no-preference', 'reduce'] as const) {
    const timelines: SplashTimeline[] = [];
    for (let run = 0; run < runs; run++) {
      const page = await newPage(browser, { reducedMotion });
      await recordSplash(page);
      await page.goto(url);
      // Shown first: waiting for "detached" before the app has mounted it would end at once.
      await page.getByTestId('splash').waitFor({ state: 'visible', timeout: 10_000 });
      await page.getByTestId('splash').waitFor({ state: 'detached', timeout: 10_000 });
      timelines.push(await timelineOf(page));
      await page.context().close();
    }
    console.log(`\nreduced motion: ${reducedMotion} (${runs} loads; ms after the overlay appeared)`);
    for (const moment of Object.keys(windows) as Moment[]) {
      const times = timelines.map((timeline) => timeline[moment] ?? Number.NaN);
      const [from, to] = windows[moment];
      const typical = median(times);
      const within = typical >= from && typical <= to;
      if (!within) outside += 1;
      console.log(
        `  ${moment.padEnd(10)} median ${typical.toFixed(0).padStart(5)}  window ${from}-${to}  ${within ? 'ok' : 'OUTSIDE'}` +
          `   [${times.map((t) => t.toFixed(0)).join(', ')}]`,
      );
    }
  }
} finally {
  await browser.close();
  await app.close();
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
}
console.log(outside === 0 ? '\nEvery median is within its window.' : `\n${outside} medians outside their window.`);
process.exitCode = outside === 0 ? 0 : 1;
