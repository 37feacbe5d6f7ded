import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { ARTIFACTS_DIR, newPage, openSignedIn } from './web.ts';

/**
 * The row actions stay at the grid's right edge when its columns are wider
 * than the grid (list-grid.tsx holds them there only then: a sticky cell in
 * every row is work in every frame scrolled), and need no holding when the
 * columns fit.
 */
describe('the list grid: row actions at its right edge', () => {
  let server: TestServer;
  let browser: Browser;
  const pages: Page[] = [];
  const name = `Edgewise ${Date.now()}`;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    const answer = await server.fetch('/api/v1/companies', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, city: 'Lyon' }),
    });
    if (!answer.ok) throw new Error(`POST /companies answered ${answer.status}: ${await answer.text()}`);
  });
  afterEach(async () => {
    await Promise.all(pages.splice(0).map((page) => page.context().close()));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function deleteButtonInside(width: number) {
    const page = await newPage(browser, { viewport: { width, height: 800 } });
    pages.push(page);
    await openSignedIn(page, `${server.url}/companies?q=${encodeURIComponent(name)}`);
    const grid = page.getByTestId('list-grid');
    const del = grid.getByRole('button', { name: `Delete ${name}` });
    await del.waitFor();
    const inside = async () => {
      const [gridBox, delBox] = await Promise.all([grid.boundingBox(), del.boundingBox()]);
      if (!gridBox || !delBox) throw new Error('No box for the grid or the Delete button');
      return delBox.x >= gridBox.x && delBox.x + delBox.width <= gridBox.x + gridBox.width + 1;
    };
    const sideways = await grid.evaluate((el) => el.scrollWidth > el.clientWidth);
    return { page, grid, inside, sideways };
  }

  it('narrower than its columns, the grid scrolls sideways and keeps the row actions in view', async () => {
    const { page, grid, inside, sideways } = await deleteButtonInside(900);
    expect(sideways).toBe(true);
    expect(await inside()).toBe(true);
    await grid.evaluate((el) => {
      el.scrollLeft = el.scrollWidth / 2;
    });
    expect(await inside()).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS_DIR}grid-actions-edge-900.png` });
  });

  it('at 1440 px the columns fit: no sideways scroll, the row actions at the right edge', async () => {
    const { inside, sideways } = await deleteButtonInside(1440);
    expect(sideways).toBe(false);
    expect(await inside()).toBe(true);
  });
});
