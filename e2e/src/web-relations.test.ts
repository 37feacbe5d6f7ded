import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { createRecord, newPage, noSeriousViolations, openSignedIn } from './web.ts';

/**
 * Issue 13: relation panels have column headings and totals. An investor's
 * deals carry each commitment; the panel's footer counts every deal and sums
 * the commitments per currency, also those beyond the page it loaded.
 */
describe("a record page's relation panel: headings and totals", () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let investorId: number;

  const create = (resource: string, body: Record<string, unknown>) => createRecord(server, resource, body);

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    investorId = (await create('investors', { name: 'Northwind Pension' })).id;
    // 12 deals, more than the panel's first page of 10: 11 commitments in US dollars, 1 in euros.
    for (let i = 1; i <= 12; i += 1) {
      const deal = await create('deals', { name: `Deal ${String(i).padStart(2, '0')}` });
      const commitment = i === 1 ? { amount: 2_500_000, currency: 'EUR' } : { amount: 1_000_000, currency: 'USD' };
      await create('dealInvestors', { dealId: deal.id, investorId, commitment });
    }
    page = await newPage(browser);
  });
  afterAll(async () => {
    await page?.context().close();
    await browser?.close();
    await server?.close();
  });

  it('names its columns, counts every deal and sums the commitments per currency, never mixed', async () => {
    await openSignedIn(page, `${server.url}/investors/${investorId}/show`);
    const panel = page.getByRole('region', { name: 'Deals' });
    const table = panel.getByRole('table', { name: 'Deals' });
    await table.waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(
      expect.arrayContaining(['Name', 'Commitment']),
    );
    // Ten rows loaded (and the footer), yet the footer counts all twelve.
    await expect.poll(() => panel.getByRole('rowheader', { name: /^Deal \d+$/ }).count()).toBe(10);
    await expect
      .poll(() => panel.getByTestId('relation-count').textContent(), { timeout: 15_000 })
      .toBe('Total · 12 rows');
    const totals = panel.getByTestId('relation-total');
    await expect.poll(() => totals.locator('div').allTextContents()).toEqual(['€2,500,000', '$11,000,000']);
    await noSeriousViolations(page);

    // Removing one link: the totals follow.
    await panel.getByRole('button', { name: 'Remove Deal 01' }).click();
    await expect
      .poll(() => panel.getByTestId('relation-count').textContent(), { timeout: 15_000 })
      .toBe('Total · 11 rows');
    await expect.poll(() => totals.locator('div').allTextContents()).toEqual(['$11,000,000']);
  });
});
