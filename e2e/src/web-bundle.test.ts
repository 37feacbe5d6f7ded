import { seedDemoIfEmpty } from '@data-platform/server/seed/demo';
import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { FIRST_SCREEN_BUDGETS, measureFirstScreen } from './first-screens.ts';
import { gzipTotal, type ScriptLoad } from './web.ts';

/** Every file with its gzipped size, largest first: what a failure shows. */
const listing = (loads: readonly ScriptLoad[]) =>
  [...loads]
    .sort((a, b) => b.gzipBytes - a.gzipBytes)
    .map((load) => `${load.gzipBytes} ${load.path}`)
    .join('\n');
const fetched = (loads: readonly ScriptLoad[], name: RegExp) => loads.some((load) => name.test(load.path));

/** The JavaScript the browser fetches for the first screens stays within budget (bytes, not time). */
describe('the first screens’ JavaScript', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer();
    expect(await seedDemoIfEmpty(server.database, { info: () => {} })).toBe(true);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the sign-in screen fetches at most 200 KB of gzipped JavaScript', async () => {
    const loads = await measureFirstScreen('signIn', browser, server);
    // What was measured is the screen: the entry and the sign-in page's module.
    expect(fetched(loads, /^\/assets\/index-[\w-]+\.js$/)).toBe(true);
    expect(fetched(loads, /^\/assets\/sign-in-page-[\w-]+\.js$/)).toBe(true);
    expect(gzipTotal(loads), listing(loads)).toBeLessThanOrEqual(FIRST_SCREEN_BUDGETS.signIn);
  });

  it('a signed-in company list fetches at most 300 KB of gzipped JavaScript', async () => {
    const loads = await measureFirstScreen('companies', browser, server);
    expect(fetched(loads, /^\/assets\/index-[\w-]+\.js$/)).toBe(true);
    expect(fetched(loads, /^\/assets\/list-page-[\w-]+\.js$/)).toBe(true);
    // Signed in from a kept session: the sign-in screen's code is not fetched.
    expect(fetched(loads, /^\/assets\/sign-in-page-[\w-]+\.js$/)).toBe(false);
    expect(gzipTotal(loads), listing(loads)).toBeLessThanOrEqual(FIRST_SCREEN_BUDGETS.companies);
  });
});
