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
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { configFromEnv } from '@data-platform/server/config';
import { openDatabase } from '@data-platform/server/db/client';
import { bootstrapAccounts } from '@data-platform/server/domain/bootstrap';
import { buildApp } from '@data-platform/server/http/app';
import { seedDemoIfEmpty } from '@data-platform/server/seed/demo';
import { launchChromium } from '../src/browser.ts';
import { FIRST_SCREEN_BUDGETS, type FirstScreen, measureFirstScreen } from '../src/first-screens.ts';
import { gzipTotal, type ScriptLoad } from '../src/web.ts';

const EMAIL = 'admin@bench.example';
const PASSWORD = 'a long bench passphrase';
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
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dp-first-screen-'));
  const database = await openDatabase({});
  const config = configFromEnv({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ADMIN_EMAIL: EMAIL,
    ADMIN_PASSWORD: PASSWORD,
    ...(process.env.WEB_DIR ? { WEB_DIR: process.env.WEB_DIR } : {}),
  });
  await bootstrapAccounts(database, config);
  await seedDemoIfEmpty(database, { info: () => {} });
  const app = await buildApp({ config, database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const server = {
    url,
    email: EMAIL,
    password: PASSWORD,
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
    const file = path.join(import.meta.dirname, 'results', 'first-screen.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`\nWrote ${path.relative(process.cwd(), file)}`);
  } finally {
    await browser.close();
    await app.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
