/**
 * Frame times of the list grid holding 100,000 rows, in Chromium.
 *
 *   npm run bench:grid                              # builds the web app, then 100,000 rows at 400 px a frame
 *   npm run bench:grid -- --rows 5000 --px 200
 *   npm run bench:grid -- --rows 5000 --profile     # and the script's functions taking most time while scrolling
 *   npm run bench:grid -- --frames 1500             # 100,000 rows loaded, the first 1,500 frames of the scroll only
 *
 * The real server serves the built app (apps/web/dist, or WEB_DIR) and signs
 * in; the company list's answers are made here (page.route), 1,000 rows each,
 * so that the client is what is measured. The rows are appended through the
 * app's own Load More... button, clicked as soon as it is back after each
 * page; then the grid is scrolled from top to bottom, a fixed distance per
 * animation frame, and every frame's duration is recorded. The figures are
 * written to e2e/bench/results/grid-scroll-<rows>.json.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { writeBenchResult } from './bench-server.ts';
import { openBrowserBench, percentile, round, scrollMeter } from './browser-bench.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    px: { type: 'string', default: '400' },
    profile: { type: 'boolean', default: false },
    // Frames measured, from the top; by default every frame down to the last row. Shorter runs for A/B comparisons.
    frames: { type: 'string', default: '0' },
  },
});
const ROWS = Number(values.rows);
const PX_PER_FRAME = Number(values.px);
const MAX_FRAMES = Number(values.frames) || Number.POSITIVE_INFINITY;
const PER_ANSWER = 1000;
const VIEWPORT = { width: 1440, height: 900 };
const stages = ['Seed', 'Series A', 'Series B', 'Growth'];
const cities = ['Paris', 'Lyon', 'Berlin', 'London', 'New York'];

function answer(offset: number) {
  const count = Math.min(PER_ANSWER, ROWS - offset);
  const data = Array.from({ length: count }, (_, i) => {
    const id = offset + i + 1;
    return {
      id,
      version: 1,
      name: `Company ${String(id).padStart(6, '0')}`,
      industry: 'Software',
      stage: stages[id % stages.length],
      status: 'Active',
      city: cities[id % cities.length],
      hqCountry: { name: 'France' },
      owner: { fullName: 'Ada Admin' },
    };
  });
  const next = offset + count;
  return {
    data,
    page: 1,
    pageSize: PER_ANSWER,
    total: ROWS,
    totalExact: false,
    nextCursor: next < ROWS ? String(next) : null,
  };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

/** The functions of a CPU profile by the time spent in them (not in what they call), longest first. */
function selfTimes(profile: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] }, top: number) {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const spent = new Map<string, number>();
  (profile.samples ?? []).forEach((id, i) => {
    const frame = byNode.get(id)?.callFrame;
    if (!frame) return;
    const file = frame.url.slice(frame.url.lastIndexOf('/') + 1);
    const name = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
    spent.set(name, (spent.get(name) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
  });
  return [...spent]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, ms]) => `${round(ms).toFixed(1).padStart(8)} ms  ${name}`);
}

/** The share of `frames` that `test` takes, in per cent. */
const share = (frames: number[], test: (t: number) => boolean) =>
  `${round((100 * frames.filter(test).length) / frames.length)} %`;
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

// Scripts run in the page are passed as text: tsx would wrap named functions in a helper the page does not have.

/**
 * Clicks Load More... each time it is back, until all rows are loaded;
 * answers each page's time, from one click to the next. After a click the
 * button goes while its page loads; a button still there a second after its
 * click lost it, and is clicked again (a click while the list was still
 * settling did nothing, and the run stalled there after 4 to 9 pages). A
 * poll every 100 ms looks too, for a change the observer did not report.
 * 60 s without a page loaded fails.
 */
const loadAll = `new Promise((resolve, reject) => {
  const pages = [];
  let last = null;
  let clicked = null;
  let stalled;
  const allLoaded = () => [...document.querySelectorAll('p')].some((p) => /^All .* loaded$/.test(p.textContent));
  const stop = () => { observer.disconnect(); clearInterval(poll); clearTimeout(stalled); };
  const progressed = () => {
    clearTimeout(stalled);
    stalled = setTimeout(() => { stop(); reject(new Error('No progress for 60 s after ' + pages.length + ' pages')); }, 60000);
  };
  const step = () => {
    if (allLoaded()) {
      stop();
      if (last !== null) pages.push(performance.now() - last);
      return resolve(pages);
    }
    const button = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Load More...');
    const now = performance.now();
    if (clicked !== null) {
      if (!button) clicked = null;
      else if (now - clicked > 1000) { clicked = now; button.click(); }
      return;
    }
    if (!button) return;
    if (last !== null) pages.push(now - last);
    last = now;
    clicked = now;
    progressed();
    button.click();
  };
  const observer = new MutationObserver(step);
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  const poll = setInterval(step, 100);
  progressed();
  step();
})`;

async function main() {
  const bench = await openBrowserBench('grid-bench', VIEWPORT);
  const { browser, page, loadBefore } = bench;
  try {
    await page.route(/\/api\/v1\/companies\?/, (route) => {
      const cursor = new URL(route.request().url()).searchParams.get('cursor');
      return route.fulfill({ json: answer(cursor ? Number(cursor) : 0) });
    });
    await bench.signIn('/companies');
    await page.locator('tbody tr').first().waitFor();
    const meter = await scrollMeter(page);

    console.log(`Loading ${ROWS.toLocaleString('en')} rows by Load More...`);
    const loadStart = Date.now();
    const pages = (await page.evaluate(loadAll)) as number[];
    const loadedMs = Date.now() - loadStart;
    const loaded = await page.locator('p', { hasText: /^All .* loaded$/ }).textContent();

    console.log(`Scrolling from top to bottom, ${PX_PER_FRAME} px a frame`);
    const { frames, perFrame, profile, clock } = await meter.scroll('[data-testid="list-grid"]', PX_PER_FRAME, {
      frames: MAX_FRAMES,
      profile: values.profile,
    });
    if (profile) console.log(`Self time while scrolling, by function:\n${selfTimes(profile, 30).join('\n')}`);
    const lastRowIndex = await page.locator('tbody tr').last().getAttribute('aria-rowindex');
    const sorted = [...frames].sort((a, b) => a - b);

    const result = {
      date: new Date().toISOString(),
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model,
        loadAverage1m: { before: round(loadBefore), after: round(os.loadavg()[0] ?? 0) },
      },
      browser: `Chromium ${browser.version()}, headless, GPU off`,
      viewport: VIEWPORT,
      rows: ROWS,
      load: {
        pages: pages.length,
        totalMs: loadedMs,
        // The first and last ten pages: a page appended to 99,000 rows should cost what one appended to 1,000 does.
        medianPageMsFirst10: median(pages.slice(0, 10)),
        medianPageMsLast10: median(pages.slice(-10)),
        shown: loaded,
      },
      scroll: {
        pxPerFrame: PX_PER_FRAME,
        frames: frames.length,
        clock,
        frameMs: {
          median: percentile(sorted, 0.5),
          p95: percentile(sorted, 0.95),
          max: round(sorted.at(-1) ?? 0),
          mean: round(frames.reduce((sum, t) => sum + t, 0) / frames.length),
        },
        framesOver17Ms: `${round((100 * frames.filter((t) => t > 17).length) / frames.length)} %`,
        // How the frames spread around one refresh (16.7 ms): the timer's jitter, or frames missed (33.3 ms and up).
        share: {
          upTo16_6Ms: share(frames, (t) => t < 16.65),
          at16_7Ms: share(frames, (t) => t >= 16.65 && t < 16.75),
          at16_8To17Ms: share(frames, (t) => t >= 16.75 && t <= 17),
          over17Ms: share(frames, (t) => t > 17),
          over25Ms: share(frames, (t) => t > 25),
        },
        // Chromium's own accounts of the main thread, per frame.
        mainThreadMsPerFrame: {
          script: perFrame('ScriptDuration'),
          style: perFrame('RecalcStyleDuration'),
          layout: perFrame('LayoutDuration'),
          allTasks: perFrame('TaskDuration'),
        },
        lastRowShown: Number(lastRowIndex) - 1,
      },
    };
    console.log(JSON.stringify(result, null, 2));
    await writeBenchResult(
      `grid-scroll-${ROWS}${Number.isFinite(MAX_FRAMES) ? `-${MAX_FRAMES}-frames` : ''}.json`,
      result,
    );
  } finally {
    await bench.close();
  }
}

await main();
