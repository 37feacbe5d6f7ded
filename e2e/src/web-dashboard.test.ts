import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { ARTIFACTS_DIR, createRecord, newPage, noSeriousViolations, openSignedIn } from './web.ts';

/** The dashboard a partner opens (issue 13): the deal funnel as a chart and a table, named recent notes, "my" records. */
describe('the home dashboard', () => {
  let server: TestServer;
  let browser: Browser;
  let adminId: number;
  let heron: number;

  const create = async (resource: string, body: Record<string, unknown>) =>
    (await createRecord(server, resource, body)).id;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    adminId = ((await (await server.fetch('/api/v1/auth/me')).json()) as { id: number }).id;
    heron = await create('deals', {
      name: 'Project Heron',
      stage: 'Closing',
      amount: { amount: 1_000_000, currency: 'USD' },
      ownerId: adminId,
    });
    await create('deals', { name: 'Project Ibis', stage: 'Closing', amount: { amount: 500_000, currency: 'EUR' } });
    await create('deals', { name: 'Project Jay', stage: 'Sourced' });
    await create('companies', { name: 'Owned Labs', ownerId: adminId });
    await create('companies', { name: 'Other Labs' });
    await create('notes', { entity: 'deals', recordId: heron, body: '**Urgent**: sign the term sheet' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Opens the dashboard signed in, counting the record reads the page makes (one per note named them before). */
  async function openDashboard(page: Page): Promise<{ recordReads: string[] }> {
    const recordReads: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/v1\/\w+\/\d+(\?|$)/.test(new URL(request.url()).pathname + new URL(request.url()).search)) {
        recordReads.push(request.url());
      }
    });
    await openSignedIn(page, `${server.url}/`);
    await page.getByTestId('deals-by-stage').getByTestId('breakdown-table').waitFor();
    return { recordReads };
  }

  it('shows the deal funnel as a chart with its table, readable and accessible in light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await newPage(browser, { colorScheme });
      await openDashboard(page);
      const funnel = page.getByTestId('deals-by-stage');
      // The chart: a bar per stage in the picklist's order, hidden from screen readers (the table says the same).
      const chart = funnel.getByTestId('breakdown-chart');
      await chart.locator('svg.recharts-surface').first().waitFor();
      expect(await chart.getAttribute('aria-hidden')).toBe('true');
      const ticks = chart.locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value');
      // A label too long for the axis wraps into lines (tspans): read them as words.
      const words = () =>
        ticks.evaluateAll((texts) =>
          texts.map((text) => [...text.querySelectorAll('tspan')].map((line) => line.textContent).join(' ')),
        );
      await expect
        .poll(async () => (await words()).slice(0, 6))
        .toEqual(['Sourced', 'First meeting', 'Due diligence', 'Investment committee', 'Term sheet', 'Closing']);
      // Its text is the page's text colour in either scheme (dark text on a dark card would vanish).
      const colours = await ticks.first().evaluate((tick) => ({
        tick: getComputedStyle(tick).fill,
        body: getComputedStyle(document.body).color,
      }));
      expect(colours.tick).toBe(colours.body);
      // The table equivalent: count and amounts per currency of each stage.
      const table = funnel.getByRole('table', { name: 'Deals by stage, as a table' });
      const closing = table.getByRole('row', { name: /^Closing/ });
      expect(await closing.getByRole('cell').allTextContents()).toEqual(['2', '$1,000,000 · €500,000']);
      expect(
        await table
          .getByRole('row', { name: /^Sourced/ })
          .getByRole('cell')
          .allTextContents(),
      ).toEqual(['1', '—']);
      await page.screenshot({ path: `${ARTIFACTS_DIR}dashboard-${colorScheme}.png`, fullPage: true });
      await noSeriousViolations(page);
      await page.context().close();
    }
  });

  it('opens the deals list filtered on a stage from the funnel', async () => {
    const page = await newPage(browser);
    await openDashboard(page);
    await page.getByTestId('deals-by-stage').getByRole('link', { name: 'Closing', exact: true }).click();
    await page.getByRole('heading', { name: 'Deals', exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('filter[stage][eq]')).toBe('Closing');
    await page.getByRole('row', { name: /Project Heron/ }).waitFor();
    await page.getByRole('row', { name: /Project Ibis/ }).waitFor();
    expect(await page.getByRole('row', { name: /Project Jay/ }).count()).toBe(0);
    await page.context().close();
  });

  it("names a recent note's record without reading it apart, and links to its page", async () => {
    const page = await newPage(browser);
    const { recordReads } = await openDashboard(page);
    const notes = page.getByTestId('recent-notes');
    await notes.locator('strong', { hasText: 'Urgent' }).waitFor();
    const link = notes.getByRole('link', { name: 'Deal: Project Heron' });
    await link.waitFor();
    // The name came with the summaries: no GET of the deal (there was one per note).
    expect(recordReads).toEqual([]);
    await link.click();
    await page.waitForURL(`**/deals/${heron}/show`);
    await page.getByRole('heading', { name: 'Project Heron' }).waitFor();
    await page.context().close();
  });

  it("counts the user's own records, each a link to the list filtered on its owner", async () => {
    const page = await newPage(browser);
    await openDashboard(page);
    const mine = page.getByTestId('my-records');
    const deals = mine.getByRole('link', { name: /^Deals/ });
    expect(await deals.textContent()).toBe('Deals1');
    expect(await mine.getByRole('link', { name: /^Companies/ }).textContent()).toBe('Companies1');
    await mine.getByRole('link', { name: /^Companies/ }).click();
    await page.getByRole('heading', { name: 'Companies', exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('filter[ownerId][eq]')).toBe(String(adminId));
    await page.getByRole('row', { name: /Owned Labs/ }).waitFor();
    expect(await page.getByRole('row', { name: /Other Labs/ }).count()).toBe(0);
    await page.context().close();
  });
});
