/**
 * Frame times of the list grid holding 100,000 rows, in Chromium.
 *
 *   npm run build && npx tsx e2e/bench/grid-scroll.ts [rows] [px per frame]
 *
 * The real server serves the built app and signs in; the company list's
 * answers are made here (page.route), 1,000 rows each, so that the client is
 * what is measured: the rows are appended by Load More... until all are
 * loaded, then the grid is scrolled from top to bottom, a fixed distance per
 * animation frame, and every frame's duration is recorded.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { configFromEnv } from '@data-platform/server/config';
import { openDatabase } from '@data-platform/server/db/client';
import { bootstrapAccounts } from '@data-platform/server/domain/bootstrap';
import { buildApp } from '@data-platform/server/http/app';
import { launchChromium } from '../src/browser.ts';
import { newPage, openSignedIn } from '../src/web.ts';

const ROWS = Number(process.argv[2] ?? 100_000);
const PER_ANSWER = 1000;
const SCROLL_PER_FRAME = Number(process.argv[3] ?? 2000);
const EMAIL = 'admin@bench.example';
const PASSWORD = 'a long bench passphrase';
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

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

async function main() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'dp-grid-bench-'));
  const database = await openDatabase({});
  const config = configFromEnv({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ADMIN_EMAIL: EMAIL,
    ADMIN_PASSWORD: PASSWORD,
  });
  await bootstrapAccounts(database, config);
  const app = await buildApp({ config, database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const browser = await launchChromium();
  try {
    const page = await newPage(browser, { viewport: { width: 1440, height: 900 } });
    await page.route(/\/api\/v1\/companies\?/, (route) => {
      const cursor = new URL(route.request().url()).searchParams.get('cursor');
      return route.fulfill({ json: answer(cursor ? Number(cursor) : 0) });
    });
    await openSignedIn(page, `${url}/companies`, EMAIL, PASSWORD);
    const loadStart = Date.now();
    const loadMore = page.getByRole('button', { name: 'Load More...' });
    for (;;) {
      const done = await page.getByText(/^All .* loaded$/).isVisible();
      if (done) break;
      await loadMore.click({ timeout: 60_000 });
    }
    const loadedIn = Date.now() - loadStart;
    const rendered = await page.locator('tbody tr').count();

    // Passed as text: tsx would wrap named functions in a helper the page does not have.
    const frames = (await page.evaluate(`new Promise((resolve) => {
      const grid = document.querySelector('[data-testid="list-grid"]');
      const times = [];
      let last = performance.now();
      grid.scrollTop = 0;
      const tick = (now) => {
        times.push(now - last);
        last = now;
        if (grid.scrollTop + grid.clientHeight >= grid.scrollHeight - 1) return resolve(times.slice(1));
        grid.scrollTop += ${SCROLL_PER_FRAME};
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    })`)) as number[];
    const lastRow = await page.locator('tbody tr').last().textContent();
    const sorted = [...frames].sort((a, b) => a - b);
    console.log(
      JSON.stringify(
        {
          rows: ROWS,
          loadedByLoadMoreMs: loadedIn,
          rowElementsInPage: rendered,
          scrollFrames: frames.length,
          pxPerFrame: SCROLL_PER_FRAME,
          frameMs: {
            median: Number(percentile(sorted, 0.5).toFixed(1)),
            p95: Number(percentile(sorted, 0.95).toFixed(1)),
            max: Number((sorted.at(-1) ?? 0).toFixed(1)),
          },
          lastRowShown: lastRow?.slice(0, 40),
        },
        null,
        2,
      ),
    );
  } finally {
    await browser.close();
    await app.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
