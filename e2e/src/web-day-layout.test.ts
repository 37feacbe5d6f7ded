import { mkdirSync } from 'node:fs';
import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { ARTIFACTS_DIR, activeUser, newPage, open, seriousViolations } from './web.ts';

/**
 * Layout of a working day (issue 13, item 12): the companies grid at 1440 px
 * shows Owner and the row actions without a sideways scroll and names open
 * their record; the roles page at 375 px breaks no word; an error page has
 * one main landmark.
 */

async function create(server: TestServer, resource: string, body: Record<string, unknown>) {
  const answer = await server.fetch(`/api/v1/${resource}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (answer.status !== 201) throw new Error(`${resource}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as { id: number };
}

/** The words of the page's cells (under `selector`) that the browser drew over more than one line. */
function brokenWords(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const broken: string[] = [];
    for (const cell of document.querySelectorAll(selector)) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          // One line box per word: a word cut over lines has a rectangle on each.
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  }, selector);
}

describe('a working day: layout', () => {
  let server: TestServer;
  let browser: Browser;
  let viewer: { token: string };
  const pages: Page[] = [];
  let company: { id: number };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    viewer = await activeUser(server, 'Viewer');
    const users = (await (await server.fetch('/api/v1/users?select=fullName&pageSize=1')).json()) as {
      data: { id: number }[];
    };
    const ownerId = users.data[0]?.id;
    company = await create(server, 'companies', {
      name: 'Northwind Analytics Holdings International',
      industry: 'Software',
      stage: 'Series A',
      status: 'Active',
      city: 'San Francisco',
      ownerId,
    });
    for (let n = 0; n < 5; n++) await create(server, 'companies', { name: `Layout ${n}`, city: 'Lyon' });
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
  });
  afterEach(async (context) => {
    for (const page of pages.splice(0)) {
      if (context.task.result?.state === 'fail') {
        await page.screenshot({ path: `${ARTIFACTS_DIR}day-layout-${context.task.name.slice(0, 40)}.png` });
      }
      await page.context().close();
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function openAs(token: string, path: string, viewport: { width: number; height: number }) {
    const page = await newPage(browser, { storage: { token }, viewport });
    pages.push(page);
    await open(page, `${server.url}${path}`);
    return page;
  }

  it('at 1440 px the companies grid shows Owner and the row actions without a sideways scroll', async () => {
    const page = await openAs(server.token, '/companies', { width: 1440, height: 900 });
    const grid = page.getByTestId('list-grid');
    await grid.getByRole('row', { name: /Northwind/ }).waitFor();
    const sizes = await grid.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(sizes.scroll).toBeLessThanOrEqual(sizes.client);
    const gridBox = await grid.boundingBox();
    const owner = page.getByRole('columnheader', { name: 'Owner' });
    const ownerBox = await owner.boundingBox();
    const del = grid.getByRole('button', { name: /Delete Northwind/ });
    const delBox = await del.boundingBox();
    expect(gridBox && ownerBox && delBox).toBeTruthy();
    if (!gridBox || !ownerBox || !delBox) return;
    expect(ownerBox.x + ownerBox.width).toBeLessThanOrEqual(gridBox.x + gridBox.width + 1);
    expect(delBox.x + delBox.width).toBeLessThanOrEqual(gridBox.x + gridBox.width + 1);
    // A long value is cut short in its column, and says itself in full when pointed at.
    await page.screenshot({ path: `${ARTIFACTS_DIR}day-layout-companies-1440.png` });
    expect(JSON.stringify(await seriousViolations(page), null, 1)).toEqual('[]');
  });

  it("the record's name is a link that opens the record; sorting by Owner and HQ country is offered", async () => {
    const page = await openAs(server.token, '/companies', { width: 1440, height: 900 });
    const link = page
      .getByTestId('list-grid')
      .getByRole('link', { name: 'Northwind Analytics Holdings International', exact: true });
    expect(await link.getAttribute('href')).toBe(`/companies/${company.id}/show`);
    await page.getByRole('columnheader', { name: 'Owner' }).getByRole('button').waitFor();
    await page.getByRole('columnheader', { name: 'HQ country' }).getByRole('button').waitFor();
    await link.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/companies/${company.id}/show`);
    await page.getByRole('heading', { name: 'Northwind Analytics Holdings International' }).first().waitFor();
  });

  it('at 375 px the roles page breaks no word inside', async () => {
    const page = await openAs(server.token, '/roles', { width: 375, height: 812 });
    await page.getByTestId('roles-table').waitFor();
    await page.getByTestId('roles-table').getByText('Viewer', { exact: true }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS_DIR}day-layout-roles-375.png`, fullPage: true });
    expect(await brokenWords(page, '[data-testid="roles-table"] th, [data-testid="roles-table"] td')).toEqual([]);
    // The page itself does not scroll sideways: the table scrolls within it.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(JSON.stringify(await seriousViolations(page), null, 1)).toEqual('[]');
  });

  it('an error page has exactly one main landmark, signed in or not', async () => {
    const forbidden = await openAs(viewer.token, '/outbox', { width: 1280, height: 800 });
    await forbidden.getByRole('heading', { name: 'Error', exact: true }).waitFor();
    expect(await forbidden.locator('main').count()).toBe(1);
    expect(await forbidden.locator('#main').count()).toBe(1);
    const missing = await openAs(server.token, '/no-such-page/here', { width: 1280, height: 800 });
    await missing.getByRole('heading', { name: '404' }).waitFor();
    expect(await missing.locator('main').count()).toBe(1);
    expect(await missing.locator('#main').count()).toBe(1);
  });
});
