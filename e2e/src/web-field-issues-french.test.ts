import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { newPage, openSignedIn, picker, splashGone } from './web.ts';

const json = { 'content-type': 'application/json' };

/**
 * Issue 13, item 10: the server's per-field messages read in the interface's
 * language. A case the form cannot catch first: the fund picked for a new deal
 * is deleted before the deal is created; the server's 400 names the field, in French.
 */
describe("a server 400's field message in French", () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    page = await newPage(browser);
  });
  afterAll(async () => {
    await page?.context().close();
    await browser?.close();
    await server?.close();
  });

  it('says under the field that the picked fund no longer exists', async () => {
    const made = await server.fetch('/api/v1/funds', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Vanishing Fund I', currency: 'EUR' }),
    });
    const fund = (await made.json()) as { id: number };
    await openSignedIn(page, `${server.url}/`);
    await page.goto(`${server.url}/fr/deals?create=1`);
    await splashGone(page);
    const dialog = page.getByRole('dialog', { name: 'Créer : Opération' });
    await dialog.waitFor();
    await dialog.getByRole('textbox', { name: 'Nom', exact: true }).fill('Opération orpheline');
    await picker(dialog, 'Fonds').fill('Vanishing');
    await page.getByRole('option', { name: 'Vanishing Fund I' }).click();

    // Someone deletes the fund meanwhile.
    expect((await server.fetch(`/api/v1/funds/${fund.id}`, { method: 'DELETE' })).status).toBe(204);
    await dialog.getByRole('button', { name: 'Créer', exact: true }).click();
    await dialog.getByText('Cette fiche n’existe pas ou plus').waitFor();
    expect(await dialog.getByText('No such record').count()).toBe(0);
  });
});
