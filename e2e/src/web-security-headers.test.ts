import {
  apiReferenceContentSecurityPolicy,
  webAppContentSecurityPolicy,
} from '@data-platform/server/http/security-headers';
import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { newPage, signInWithForm, splashGone } from './web.ts';

/** What the browser refused under the Content-Security-Policy, wherever it was told. */
interface Refusal {
  page: string;
  what: string;
}

/**
 * Listens for every refusal: the documents' `securitypolicyviolation` events
 * (reported from each document the page loads) and Chromium's console errors.
 */
async function watchRefusals(page: Page): Promise<Refusal[]> {
  const refusals: Refusal[] = [];
  await page.exposeFunction('reportRefusal', (what: string) => refusals.push({ page: page.url(), what }));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportRefusal: (what: string) => void }).reportRefusal;
      report(`${event.effectiveDirective} refused ${event.blockedURI || 'inline'} ${event.sample}`);
    });
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content.Security.Policy|Refused to/i.test(message.text())) {
      refusals.push({ page: page.url(), what: message.text() });
    }
  });
  page.on('pageerror', (error) => refusals.push({ page: page.url(), what: `uncaught: ${error.message}` }));
  // A load the embedder policy (COEP) blocked fails with ERR_BLOCKED_BY_RESPONSE.
  page.on('requestfailed', (request) => {
    const failure = request.failure()?.errorText ?? '';
    if (/BLOCKED/i.test(failure)) refusals.push({ page: page.url(), what: `${failure} ${request.url()}` });
  });
  return refusals;
}

function expectDocumentHeaders(response: Response | null, policy: string) {
  const headers = response?.headers() ?? {};
  expect(headers['content-security-policy']).toBe(policy);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(headers['cross-origin-embedder-policy']).toBe('require-corp');
  expect(headers['permissions-policy']).toContain('camera=()');
}

describe('the web app and the API reference under a strict Content-Security-Policy', () => {
  let server: TestServer;
  let browser: Browser;
  let companyId: number;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    const created = await server.fetch('/api/v1/companies', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Helvetic Sensors' }),
    });
    companyId = ((await created.json()) as { id: number }).id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('signs in, shows the dashboard, a list and a record with nothing refused', async () => {
    const page = await newPage(browser, { colorScheme: 'dark' });
    const refusals = await watchRefusals(page);
    const api: Response[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/api/v1/')) api.push(response);
    });

    const signIn = await page.goto(`${server.url}/sign-in`);
    expectDocumentHeaders(signIn, webAppContentSecurityPolicy);
    await splashGone(page);
    // The boot script, a file now, still set the device's scheme before the app did.
    expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
    await signInWithForm(page);
    await page.getByTestId('user-menu').waitFor();

    await page.goto(server.url);
    await splashGone(page);
    await page.getByTestId('dashboard-counts').waitFor();

    const list = await page.goto(`${server.url}/companies`);
    expectDocumentHeaders(list, webAppContentSecurityPolicy);
    await page.getByRole('gridcell', { name: 'Helvetic Sensors', exact: true }).waitFor();

    await page.goto(`${server.url}/companies/${companyId}/show`);
    await page.getByRole('heading', { name: 'Helvetic Sensors' }).first().waitFor();
    // Loaded again from the browser's cache after a 304: the stored page keeps its policy.
    await page.reload();
    await page.getByRole('heading', { name: 'Helvetic Sensors' }).first().waitFor();

    expect(refusals).toEqual([]);
    // COOP and COEP together: the page is cross-origin isolated.
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    // The stylesheets and fonts came from our origin and were applied.
    expect(await page.evaluate(() => document.fonts.check('16px "Inter Variable"'))).toBe(true);
    // The answers checked below include the sign-in and the record's own.
    expect(api.map((response) => new URL(response.url()).pathname)).toEqual(
      expect.arrayContaining(['/api/v1/auth/login', `/api/v1/companies/${companyId}`]),
    );
    for (const response of api) {
      expect((await response.allHeaders())['cache-control'], response.url()).toBe('no-store');
    }
    await page.context().close();
  });

  it('shows the API reference at /api/docs with nothing refused', async () => {
    const page = await newPage(browser);
    const refusals = await watchRefusals(page);
    const docs = await page.goto(`${server.url}/api/docs`);
    expectDocumentHeaders(docs, apiReferenceContentSecurityPolicy);
    await page.getByRole('heading', { name: /Data Platform API/ }).waitFor();
    // An operation opened: its parameters, and responses with highlighted examples.
    await page.locator('#operations-Roles-get_api_v1_roles button.opblock-summary-control').click();
    await page.locator('#operations-Roles-get_api_v1_roles .responses-wrapper').waitFor();
    expect(refusals).toEqual([]);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    await page.context().close();
  });
});
