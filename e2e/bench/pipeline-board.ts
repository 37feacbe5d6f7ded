/**
 * The deal board holding 5,000 deals, in Chromium: how soon it shows, and
 * frame times while its fullest column is scrolled.
 *
 *   npm run build && node --import tsx e2e/bench/pipeline-board.ts                  # 5,000 deals, 2,000 of them Sourced
 *   npm run build && node --import tsx e2e/bench/pipeline-board.ts --deals 300      # a smoke run
 *   node --import tsx e2e/bench/pipeline-board.ts --deals 5000 --px 200 --profile   # and the functions taking most time
 *
 * The real server serves the built app (apps/web/dist, or WEB_DIR) and signs
 * in; the board's answers (`GET /deals?...filter[stage]...` per column, the
 * grouped totals) are made here (page.route), as the server would page
 * them, so that the client is what is measured. Two fifths of the deals are
 * in the first column, the others spread over the rest. That column is read
 * to its end by scrolling (pages of 100 as the board asks for them), then
 * scrolled from top to bottom a fixed distance per animation frame, every
 * frame's duration recorded. The figures go to
 * e2e/bench/results/pipeline-board-<deals>.json.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { deals as dealEntity } from '@data-platform/shared/entities/deals';
import { writeBenchResult } from './bench-server.ts';
import { openBrowserBench, percentile, round, scrollMeter } from './browser-bench.ts';

const { values } = parseArgs({
  options: {
    deals: { type: 'string', default: '5000' },
    px: { type: 'string', default: '200' },
    profile: { type: 'boolean', default: false },
  },
});
const DEALS = Number(values.deals);
const PX_PER_FRAME = Number(values.px);
const VIEWPORT = { width: 1440, height: 900 };
const stages: (string | null)[] = [...dealEntity.fields.stage.options, null];
const currencies = ['EUR', 'USD', 'GBP'];
/** The first column's scrolling list of cards. */
const FIRST_COLUMN = '[data-testid="board-column"] [data-testid="board-column-cards"]';
const companies = ['Acme Robotics', 'Beta Foods', 'Cobalt Health', 'Delta Grid', 'Ember Labs'];

interface DealRow {
  id: number;
  version: number;
  name: string;
  stage: string | null;
  amount: { amount: number; currency: string } | null;
  fund: { id: number; name: string } | null;
  owner: { id: number; fullName: string } | null;
  companies: { id: number; name: string; link: { id: number } }[];
}

/** Two fifths in the first stage, the rest round the other columns; named in the board's order (by name). */
const rows: DealRow[] = Array.from({ length: DEALS }, (_, i) => {
  const id = i + 1;
  const stage = i < Math.floor((DEALS * 2) / 5) ? stages[0] : stages[1 + (i % (stages.length - 1))];
  const linked = i % 4;
  return {
    id,
    version: 1,
    name: `Deal ${String(id).padStart(5, '0')}`,
    stage: stage ?? null,
    amount: i % 7 === 0 ? null : { amount: 250_000 * (1 + (i % 20)), currency: currencies[i % 3] as string },
    fund: i % 3 === 0 ? null : { id: 1 + (i % 4), name: `Fund ${1 + (i % 4)}` },
    owner: { id: 1, fullName: 'Ada Admin' },
    companies: Array.from({ length: linked }, (_, k) => ({
      id: k + 1,
      name: companies[(i + k) % companies.length] as string,
      link: { id: i * 4 + k },
    })),
  };
});

/** One column's page as the list API answers it: `pageSize` rows after the cursor (an offset here). */
function listAnswer(url: URL) {
  const eq = url.searchParams.get('filter[stage][eq]');
  const inColumn = url.searchParams.has('filter[stage][isNull]')
    ? rows.filter((row) => row.stage === null)
    : rows.filter((row) => row.stage === eq);
  const offset = Number(url.searchParams.get('cursor') ?? 0);
  const size = Number(url.searchParams.get('pageSize') ?? 50);
  const data = inColumn.slice(offset, offset + size);
  const next = offset + data.length;
  return {
    data,
    page: 1,
    pageSize: size,
    total: null,
    totalExact: true,
    nextCursor: next < inColumn.length ? String(next) : null,
  };
}

/** The grouped totals, as `GET /deals/aggregates?groupBy=stage&fields=amount` answers them. */
function totalsAnswer() {
  const groups = stages.map((stage) => {
    const inColumn = rows.filter((row) => row.stage === stage);
    const sums = new Map<string, { count: number; sum: number }>();
    for (const row of inColumn) {
      if (!row.amount) continue;
      const sum = sums.get(row.amount.currency) ?? { count: 0, sum: 0 };
      sums.set(row.amount.currency, { count: sum.count + 1, sum: sum.sum + row.amount.amount });
    }
    return {
      value: stage,
      count: inColumn.length,
      fields: {
        amount: {
          kind: 'money' as const,
          count: [...sums.values()].reduce((n, s) => n + s.count, 0),
          currencies: [...sums].map(([currency, s]) => ({
            currency,
            count: s.count,
            sum: String(s.sum),
            avg: null,
            min: null,
            max: null,
          })),
        },
      },
    };
  });
  return { count: rows.length, fields: {}, groupBy: 'stage', groups };
}

// Scripts run in the page are passed as text: tsx would wrap named functions in a helper the page does not have.

/** Scrolls the first column to its end until its last card (`expected`) is drawn; answers how long it took. */
const readColumn = (expected: number) => `new Promise((resolve, reject) => {
  const started = performance.now();
  const scroller = document.querySelector(${JSON.stringify(FIRST_COLUMN)});
  const stalled = setTimeout(() => reject(new Error('The column did not reach its end in 120 s')), 120000);
  const tick = () => {
    scroller.scrollTop = scroller.scrollHeight;
    const last = [...scroller.querySelectorAll('li')].map((li) => Number(li.getAttribute('aria-posinset')));
    if (Math.max(0, ...last) >= ${expected}) {
      clearTimeout(stalled);
      return resolve(performance.now() - started);
    }
    requestAnimationFrame(tick);
  };
  tick();
})`;

async function main() {
  const bench = await openBrowserBench('board-bench', VIEWPORT);
  const { url, browser, page, loadBefore } = bench;
  try {
    let cardBytes = 0;
    let cardRequests = 0;
    await page.route(/\/api\/v1\/deals\/aggregates\?/, (route) => route.fulfill({ json: totalsAnswer() }));
    await page.route(/\/api\/v1\/deals\?/, (route) => {
      const body = JSON.stringify(listAnswer(new URL(route.request().url())));
      cardBytes += body.length;
      cardRequests += 1;
      return route.fulfill({ body, contentType: 'application/json' });
    });
    await bench.signIn('/deals');
    const opened = Date.now();
    await page.goto(`${url}/deals/board`);
    await page.locator('[data-testid="board-column"]').first().locator('[data-testid="deal-card"]').first().waitFor();
    await page.locator('[data-testid="column-count"]').first().filter({ hasText: /[1-9]/ }).waitFor();
    const shownMs = Date.now() - opened;
    const firstColumn = rows.filter((row) => row.stage === stages[0]).length;
    const cardsDrawnAtOpen = await page.locator('[data-testid="deal-card"]').count();

    const meter = await scrollMeter(page);

    console.log(`Reading the first column's ${firstColumn.toLocaleString('en')} deals by scrolling`);
    const readMs = (await page.evaluate(readColumn(firstColumn))) as number;
    console.log(`Scrolling it from top to bottom, ${PX_PER_FRAME} px a frame`);
    const { frames, perFrame, profile, clock } = await meter.scroll(FIRST_COLUMN, PX_PER_FRAME, {
      profile: values.profile,
    });
    if (profile) console.log(`CPU profile: ${profile.nodes.length} nodes (open with Chrome DevTools if needed)`);
    const sorted = [...frames].sort((a, b) => a - b);
    const cardsInDom = await page.locator('[data-testid="deal-card"]').count();

    const result = {
      date: new Date().toISOString(),
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model,
        loadAverage1m: { before: round(loadBefore), after: round(os.loadavg()[0] ?? 0) },
      },
      browser: `Chromium ${browser.version()}, headless, GPU off`,
      viewport: VIEWPORT,
      deals: DEALS,
      open: {
        shownMs,
        cardsDrawn: cardsDrawnAtOpen,
      },
      firstColumn: {
        deals: firstColumn,
        readToEndMs: round(readMs),
        cardRequests,
        cardKilobytes: round(cardBytes / 1024),
      },
      scroll: {
        pxPerFrame: PX_PER_FRAME,
        frames: frames.length,
        clock,
        frameMs: {
          median: percentile(sorted, 0.5),
          p95: percentile(sorted, 0.95),
          max: round(sorted.at(-1) ?? 0),
          mean: round(frames.reduce((sum, t) => sum + t, 0) / Math.max(1, frames.length)),
        },
        framesOver17Ms: `${round((100 * frames.filter((t) => t > 17).length) / Math.max(1, frames.length))} %`,
        mainThreadMsPerFrame: {
          script: perFrame('ScriptDuration'),
          style: perFrame('RecalcStyleDuration'),
          layout: perFrame('LayoutDuration'),
          allTasks: perFrame('TaskDuration'),
        },
        // Virtualized: the cards in the page stay a screenful or two, however many the board holds.
        cardsInDocument: cardsInDom,
      },
    };
    console.log(JSON.stringify(result, null, 2));
    await writeBenchResult(`pipeline-board-${DEALS}.json`, result);
  } finally {
    await bench.close();
  }
}

await main();
