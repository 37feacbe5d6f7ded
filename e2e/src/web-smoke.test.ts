import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { newPage } from './web.ts';

describe('the web build served by the API server', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('starts in English and asks a visitor to sign in', async () => {
    const page = await newPage(browser);
    await page.goto(server.url);
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('en');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await page.context().close();
  });

  it('serves the web app for a deep link and JSON 404 for an unknown API path', async () => {
    const page = await newPage(browser);
    const response = await page.goto(`${server.url}/companies/1/show`);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('Data Platform');
    const api = await server.fetch('/api/v1/nothing-here');
    expect(api.status).toBe(404);
    expect((await api.json()).error.code).toBe('not_found');
    await page.context().close();
  });
});
