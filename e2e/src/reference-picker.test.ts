import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { createRecord, newPage, openSignedIn, picker } from './web.ts';

/**
 * A reference picker searches the server once typing pauses. Until that
 * answer comes, the options shown are the last answer's that hold the text:
 * the list follows the typing at once, and the answer does not reorder it
 * under the pointer. A pick made then was lost in CI: the option moved between
 * the mouse going down and up, so the click landed beside it and the link's
 * save was refused ("Required").
 */
describe('reference picker: the options follow the typing before the server answers', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const create = (resource: string, body: Record<string, unknown>) => createRecord(server, resource, body);

  it('shows only the options holding the text while the search is held, and keeps the pick once it answers', async () => {
    for (const name of ['Alpha Capital', 'Beta Partners', 'Omega Pension Trust', 'Pension Fund Lux']) {
      await create('investors', { name });
    }
    const deal = await create('deals', { name: 'Project Held' });
    const page = await newPage(browser);
    // Searches of investors by text wait until released (a slow network); the first page of names does not.
    const held: Route[] = [];
    let release = false;
    await page.route(
      (url) => url.pathname === '/api/v1/investors' && url.searchParams.has('q'),
      (route) => (release ? route.continue() : void held.push(route)),
    );
    await openSignedIn(page, `${server.url}/deals/${deal.id}/show`);
    const panel = page.getByRole('region', { name: 'Investors' });
    await panel.getByRole('button', { name: 'Add: Investor' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add: Investor' });
    const investor = picker(dialog, 'Investor');
    await investor.click();
    // The first page of names, read without a search, is in.
    await page.getByRole('option', { name: 'Beta Partners' }).waitFor();

    await investor.fill('pension');
    await expect.poll(() => held.length).toBeGreaterThan(0);
    const options = page.getByRole('listbox').getByRole('option');
    // Before the server answered: the names holding the text, in the first page's order.
    expect(await options.allTextContents()).toEqual(['Omega Pension Trust', 'Pension Fund Lux']);
    await page.getByRole('option', { name: 'Pension Fund Lux' }).click();
    release = true;
    for (const route of held.splice(0)) await route.continue();

    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await panel.getByRole('link', { name: 'Pension Fund Lux' }).waitFor();
    const linked = (await (await server.fetch(`/api/v1/deals/${deal.id}/investors?select=name`)).json()) as {
      data: { name: string }[];
    };
    expect(linked.data.map((row) => row.name)).toEqual(['Pension Fund Lux']);

    // Text none of the names shown holds: still searching until the server has answered, then nothing found.
    release = false;
    await panel.getByRole('button', { name: 'Add: Investor' }).click();
    await picker(dialog, 'Investor').fill('zzz');
    await expect.poll(() => held.length).toBeGreaterThan(0);
    await page.getByText('Searching…').waitFor();
    release = true;
    for (const route of held.splice(0)) await route.continue();
    await page.getByText('Nothing found').waitFor();
    await page.context().close();
  });
});
