import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { ARTIFACTS_DIR, createRecord, newPage, noSeriousViolations, openSignedIn } from './web.ts';

/**
 * Global search (issue 16): Ctrl-K opens the palette anywhere, results come
 * grouped by type as the user types, the keyboard alone picks one and opens
 * its page; reopened with an empty box, the palette offers what was opened.
 * Light and dark, with nothing serious for axe.
 */
describe('the search palette', () => {
  let server: TestServer;
  let browser: Browser;
  const ids: Record<string, number> = {};

  const create = async (resource: string, body: Record<string, unknown>) =>
    (await createRecord(server, resource, body)).id;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    ids.quasar = await create('companies', { name: 'Quasarix Robotics', city: 'Lyon' });
    ids.quasarLabs = await create('companies', { name: 'Quasarix Labs' });
    ids.fund = await create('funds', { name: 'Quasarix Growth Fund I', currency: 'USD' });
    ids.deal = await create('deals', { name: 'Quasarix Series A' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const palette = (page: Page) => page.getByRole('dialog', { name: 'Search records' });
  const box = (page: Page) => palette(page).getByRole('combobox', { name: 'Search all records' });

  it("never shows an older term's results while a newer one is read, so Enter cannot open one of them", async () => {
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/companies`);
    // The search for the second term waits until released (a slow network).
    const held: Route[] = [];
    await page.route(
      (url) => url.pathname === '/api/v1/search' && url.searchParams.get('q') === 'quasarix labs',
      (route) => void held.push(route),
    );
    await page.keyboard.press('Control+k');
    await box(page).fill('quasarix');
    const options = palette(page).getByRole('option');
    await expect.poll(() => options.count()).toBe(4);
    await box(page).fill('quasarix labs');
    await expect.poll(() => held.length).toBe(1);
    expect(await options.count()).toBe(0);
    await page.keyboard.press('Enter');
    expect(new URL(page.url()).pathname).toBe('/companies');
    await (held[0] as Route).continue();
    await expect.poll(() => options.first().textContent()).toBe('Quasarix Labs');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/companies/${ids.quasarLabs}/show`);
    await page.context().close();
  });

  it('Ctrl-K, part of a name, arrows and Enter open the record; reopened empty, it is among the recent ones', async () => {
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/companies`);
    await page.keyboard.press('Control+k');
    await expect.poll(() => box(page).evaluate((el) => el === document.activeElement)).toBe(true);
    await box(page).pressSequentially('quasarix rob', { delay: 20 });
    const options = palette(page).getByRole('option');
    // The name starting with the text first; other names only as similar spellings after it.
    await expect.poll(() => options.first().textContent()).toBe('Quasarix Robotics');
    await box(page).fill('quasarix');
    // Grouped by type in sidebar order, best first.
    const groups = palette(page).getByRole('group');
    await expect.poll(() => groups.count()).toBe(3);
    await expect
      .poll(() => groups.evaluateAll((all) => all.map((g) => g.textContent)))
      .toEqual(['CompaniesQuasarix LabsQuasarix Robotics', 'FundsQuasarix Growth Fund I', 'DealsQuasarix Series A']);
    // The first line is active; one arrow down is Quasarix Robotics.
    await expect.poll(() => options.first().getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => options.nth(1).getAttribute('aria-selected')).toBe('true');
    const active = await box(page).getAttribute('aria-activedescendant');
    expect(await options.nth(1).getAttribute('id')).toBe(active);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/companies/${ids.quasar}/show`);
    await expect.poll(() => palette(page).count()).toBe(0);

    // Reopened with an empty box: what was opened is offered first; Escape closes.
    await page.keyboard.press('Control+k');
    await expect.poll(() => options.allTextContents()).toEqual(['Quasarix RoboticsCompanies']);
    await page.keyboard.press('Escape');
    await expect.poll(() => palette(page).count()).toBe(0);
    // A typo still finds it.
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await box(page).fill('quasrix robotics');
    await expect.poll(() => options.first().textContent()).toContain('Quasarix Robotics');
  });

  it('shows its results the same in light and dark, with nothing serious for axe', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await newPage(browser, { colorScheme });
      await openSignedIn(page, `${server.url}/companies`);
      await page.keyboard.press('Control+k');
      await box(page).fill('quasarix');
      await expect.poll(() => palette(page).getByRole('group').count()).toBe(3);
      await page.keyboard.press('ArrowDown');
      await noSeriousViolations(page);
      await page.screenshot({ path: `${ARTIFACTS_DIR}global-search-${colorScheme}.png` });
      await page.context().close();
    }
  });
});
