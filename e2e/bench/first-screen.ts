/**
 * The JavaScript the browser fetches for the first screens, per file, in Chromium.
 *
 *   npm run bench:web     # builds the web app, then measures
 *
 * The real server serves the built app (apps/web/dist, or WEB_DIR) over an
 * in-memory database with the demo data. Two fresh visits: `/` signed out,
 * until the sign-in form shows; /companies with a kept session, until its rows
 * show; each watched for at least 3 s and until the network is quiet. Every
 * JavaScript response's body is gzipped here (the server sends it as is).
 * The figures are written to e2e/bench/results/first-screen.json.
 */
import { seedDemoIfEmpty } from '@data-platform/server/seed/demo';
import { launchChromium } from '../src/browser.ts';
import { FIRST_SCREEN_BUDGETS, type FirstScreen, measureFirstScreen } from '../src/first-screens.ts';
import { gzipTotal, type ScriptLoad } from '../src/web.ts';
import { BENCH_EMAIL, BENCH_PASSWORD, startBenchServer, writeBenchResult } from './bench-server.ts';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function print(screen: FirstScreen, loads: ScriptLoad[]) {
  const total = gzipTotal(loads);
  const budget = FIRST_SCREEN_BUDGETS[screen];
  console.log(`\n${screen}: ${kb(total)} gzip in ${loads.length} files (budget ${kb(budget)})`);
  for (const load of [...loads].sort((a, b) => b.gzipBytes - a.gzipBytes)) {
    console.log(`  ${kb(load.gzipBytes).padStart(9)}  ${kb(load.bytes).padStart(9)} raw  ${load.path}`);
  }
  return { gzipBytes: total, budgetBytes: budget, withinBudget: total <= budget, files: loads };
}

async function main() {
  const started = await startBenchServer('first-screen', (database) => seedDemoIfEmpty(database, { info: () => {} }));
  const { url } = started;
  const server = {
    url,
    email: BENCH_EMAIL,
    password: BENCH_PASSWORD,
    fetch: (where: string, init?: RequestInit) => fetch(`${url}${where}`, init),
  };
  const browser = await launchChromium();
  try {
    const result = {
      date: new Date().toISOString(),
      browser: `Chromium ${browser.version()}, headless`,
      gzip: 'each body gzipped by node:zlib at its default level; the server sends JavaScript uncompressed',
      signIn: print('signIn', await measureFirstScreen('signIn', browser, server)),
      companies: print('companies', await measureFirstScreen('companies', browser, server)),
    };
    await writeBenchResult('first-screen.json', result);
  } finally {
    await browser.close();
    await started.close();
  }
}

await main();
