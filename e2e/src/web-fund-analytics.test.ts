import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { ARTIFACTS_DIR, createRecord, newPage, noSeriousViolations, open, openSignedIn, picker } from './web.ts';

/** A fund's analytics (issue 15): cash flows added on its page move its tiles and charts; funds compared. */
describe('fund analytics', () => {
  let server: TestServer;
  let browser: Browser;
  let heron: number;
  let young: number;

  const create = async (resource: string, body: Record<string, unknown>) =>
    (await createRecord(server, resource, body)).id;
  const flow = (fundId: number, date: string, type: string, amount: number) =>
    create('fundCashFlows', { fundId, date, type, amount: { amount, currency: 'USD' } });

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    const fund = (name: string, vintageYear: number) =>
      create('funds', { name, vintageYear, strategy: 'Growth', currency: 'USD', finalSize: 10_000_000 });
    heron = await fund('Heron Growth I', 2022);
    young = await fund('Young Growth II', 2024);
    await flow(heron, '2022-03-31', 'Capital call', 1_000_000);
    await create('fundPerformances', { fundId: heron, asOfDate: '2023-12-31', currency: 'USD', nav: 1_100_000 });
    // Under a year of flows: its IRR is the rate over the period, not annualised.
    await flow(young, '2024-01-31', 'Capital call', 500_000);
    await create('fundPerformances', { fundId: young, asOfDate: '2024-06-30', currency: 'USD', nav: 540_000 });
    const index = await create('benchmarkIndexes', { name: 'World TR', currency: 'USD' });
    for (const [date, level] of [
      ['2022-01-03', 100],
      ['2022-03-31', 98],
      ['2023-06-30', 104],
      ['2023-12-29', 112],
      ['2024-06-28', 118],
    ] as const) {
      await create('indexLevels', { indexId: index, date, level });
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const tile = (page: Page, key: string) => page.getByTestId(`metric-${key}`).getByTestId('metric-value');
  /** The multiples chart's lines as drawn (their SVG paths): what changes when a flow does. */
  const linePaths = (chart: Locator) =>
    chart.locator('.recharts-line-curve').evaluateAll((paths) => paths.map((path) => path.getAttribute('d')));

  async function openFund(page: Page, id: number, prefix = '') {
    // Signed in in English, then the page in its language (the sign-in form is in the address' language).
    await openSignedIn(page, `${server.url}/funds/${id}/show`);
    if (prefix) await open(page, `${server.url}${prefix}/funds/${id}/show`);
    await page.getByTestId('metric-tiles').waitFor();
  }

  it('shows the tiles, and a flow added then edited on the page moves them and the charts', async () => {
    const page = await newPage(browser);
    await openFund(page, heron);
    await expect.poll(() => tile(page, 'paidIn').textContent()).toBe('$1,000,000');
    expect(await tile(page, 'nav').textContent()).toBe('$1,100,000');
    expect(await tile(page, 'tvpi').textContent()).toBe('1.10x');
    expect(await tile(page, 'pic').textContent()).toBe('10 %');
    // Nothing distributed yet: DPI is 0, defined.
    expect(await tile(page, 'dpi').textContent()).toBe('0.00x');
    expect(await page.getByTestId('nav-source').textContent()).toContain('entered by hand');
    const chart = page.getByTestId('multiples-chart');
    await chart.locator('.recharts-line-curve').first().waitFor();
    expect(await chart.getAttribute('aria-hidden')).toBe('true');
    const before = await linePaths(chart);

    // A distribution added with the generic form, the fund already set.
    await page.getByRole('button', { name: 'Add cash flow' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create: Fund cash flow' });
    await dialog.locator('input[type="date"]').fill('2023-06-30');
    await picker(dialog, 'Type').click();
    await page.getByRole('option', { name: 'Distribution', exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Amount', exact: true }).fill('300000');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });

    await expect.poll(() => tile(page, 'distributed').textContent()).toBe('$300,000');
    expect(await tile(page, 'dpi').textContent()).toBe('0.30x');
    expect(await tile(page, 'tvpi').textContent()).toBe('1.40x');
    await expect.poll(() => linePaths(chart)).not.toEqual(before);
    const cashFlows = page.getByTestId('cash-flows');
    expect(await cashFlows.getByRole('row').count()).toBe(3);

    // Edited in place: 500,000 instead.
    await cashFlows.getByRole('button', { name: 'Edit the cash flow of Jun 30, 2023' }).click();
    const editor = page.getByRole('dialog', { name: 'Editing: Fund cash flow' });
    await editor.getByRole('textbox', { name: 'Amount', exact: true }).fill('500000');
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.waitFor({ state: 'detached' });
    await expect.poll(() => tile(page, 'dpi').textContent()).toBe('0.50x');
    expect(await tile(page, 'tvpi').textContent()).toBe('1.60x');

    // The J-curve and the table equivalent of the charts.
    await page.getByTestId('j-curve-chart').locator('.recharts-area-curve').first().waitFor({ state: 'attached' });
    await page.getByText('Show the figures as a table').click();
    const table = page.getByRole('table', { name: "The fund's figures at each quarter end" });
    const last = table.getByRole('row').last();
    expect(await last.getByRole('rowheader').textContent()).toBe('Dec 31, 2023');
    expect(await last.getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['$1,000,000', '$500,000', '$1,100,000', '1.60x']),
    );
    await page.context().close();
  });

  it('compares with a picked index, and labels an IRR under a year as not annualised', async () => {
    const page = await newPage(browser);
    await openFund(page, heron);
    const pme = page.getByTestId('fund-pme');
    await pme.getByText('Choose a benchmark index above').waitFor();
    await page.getByRole('combobox', { name: 'Benchmark index' }).selectOption({ label: 'World TR (USD)' });
    await pme.getByRole('heading', { name: 'Against World TR' }).waitFor();
    await expect
      .poll(() => pme.getByTestId('pme-ksPme').getByTestId('metric-value').textContent())
      .toMatch(/^\d\.\d\dx$/);
    expect(await pme.getByTestId('pme-directAlpha').getByTestId('metric-value').textContent()).toMatch(/%$/);
    // An earlier as-of date: the tiles follow it.
    await page.getByLabel('As of', { exact: true }).fill('2022-12-31');
    await expect.poll(() => page.getByTestId('metrics-as-of').textContent()).toContain('Dec 31, 2022');

    await open(page, `${server.url}/funds/${young}/show`);
    await page.getByTestId('metric-tiles').waitFor();
    await expect
      .poll(() => page.getByTestId('metric-irr').getByTestId('metric-note').textContent())
      .toContain('not annualised');
    await page.context().close();
  });

  it('compares the funds with their quartile among peers, sortable, from the funds list', async () => {
    const page = await newPage(browser);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await openSignedIn(page, `${server.url}/funds`);
    await page.getByRole('link', { name: 'Compare funds' }).click();
    await page.getByRole('heading', { name: 'Compare funds', level: 1 }).waitFor();
    const rows = page.getByTestId('comparison-row');
    await rows.first().waitFor();
    const names = () => rows.getByRole('rowheader').allTextContents();
    // Sorted by TVPI, best first, by default.
    expect((await names()).slice(0, 2)).toEqual(['Heron Growth I', 'Young Growth II']);
    expect(await rows.first().getByTestId('quartile').textContent()).toMatch(/^Q\d of 2 funds$|^Not ranked/);
    await page.getByTestId('sort-name').click();
    await expect.poll(names).toEqual(['Heron Growth I', 'Young Growth II']);
    await page.getByTestId('sort-name').click();
    await expect.poll(names).toEqual(['Young Growth II', 'Heron Growth I']);
    expect(await page.getByRole('columnheader', { name: /^Fund/ }).getAttribute('aria-sort')).toBe('descending');
    // Neither the list nor the comparison draws a chart: the charting library is not fetched.
    expect(scripts.filter((path) => /fund-charts|breakdown-chart/.test(path))).toEqual([]);
    await page.context().close();
  });

  it('computes the quarterly records from the page; computed again, none is written twice', async () => {
    const kestrel = await create('funds', { name: 'Kestrel Buyout I', currency: 'USD', finalSize: 5_000_000 });
    await flow(kestrel, '2023-01-15', 'Capital call', 1_000_000);
    await flow(kestrel, '2023-09-01', 'Distribution', 200_000);
    const page = await newPage(browser);
    await openFund(page, kestrel);
    /** Computes with the button and its confirmation; answers the toast that matches `said`. */
    const computeOnce = async (said: RegExp) => {
      await page.getByRole('button', { name: 'Compute quarterly records' }).click();
      const dialog = page.getByRole('dialog', { name: 'Compute quarterly performance records' });
      await dialog.getByText('Records entered by hand are left as they are', { exact: false }).waitFor();
      await dialog.getByRole('button', { name: 'Compute', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      const toast = page.getByRole('alert').filter({ hasText: said });
      await toast.waitFor();
      return (await toast.textContent()) ?? '';
    };
    const computed = async () => {
      const answer = await server.fetch(
        `/api/v1/fundPerformances?filter[fundId][eq]=${kestrel}&filter[source][eq]=computed&count=exact&pageSize=1`,
      );
      return ((await answer.json()) as { total: number }).total;
    };

    const addedOnly = /: (\d+) added, 0 updated, 0 unchanged, 0 removed, 0 entered by hand/;
    const added = Number(addedOnly.exec(await computeOnce(addedOnly))?.[1]);
    // A quarter end from the first flow's (Mar 31, 2023) to the last one before today: 15 on Nov 28, 2026.
    expect(added).toBeGreaterThanOrEqual(15);
    expect(await computed()).toBe(added);
    // The metrics still take the NAV from statements entered by hand only (none here: at cost), as the records did.
    expect(await tile(page, 'nav').textContent()).toBe('$800,000');
    const record = await server.fetch(
      `/api/v1/fundPerformances?filter[fundId][eq]=${kestrel}&sort=-asOfDate&pageSize=1&select=nav,paidIn,distributed`,
    );
    expect(((await record.json()) as { data: unknown[] }).data[0]).toMatchObject({
      paidIn: 1_000_000,
      distributed: 200_000,
      nav: 800_000,
    });

    // The same flows again: every record is already right, none is written.
    await computeOnce(new RegExp(`: 0 added, 0 updated, ${added} unchanged, 0 removed, 0 entered by hand`));
    expect(await computed()).toBe(added);
    await page.context().close();
  });

  it('reads and passes axe in light and dark, English and French (screenshots in e2e/artifacts)', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const prefix of ['', '/fr']) {
        const name = `${colorScheme}${prefix ? '-fr' : ''}`;
        const page = await newPage(browser, { colorScheme });
        await openFund(page, heron, prefix);
        const chart = page.getByTestId('multiples-chart');
        await chart.locator('.recharts-line-curve').first().waitFor();
        await page.getByTestId('j-curve-chart').locator('.recharts-area-curve').first().waitFor({ state: 'attached' });
        // The charts' text is the page's text colour in either scheme.
        const colours = await chart
          .locator('.recharts-cartesian-axis-tick-value')
          .first()
          .evaluate((tick) => ({ tick: getComputedStyle(tick).fill, body: getComputedStyle(document.body).color }));
        expect(colours.tick).toBe(colours.body);
        if (prefix) expect(await tile(page, 'tvpi').textContent()).toMatch(/^\d,\d\dx$/);
        await page.screenshot({ path: `${ARTIFACTS_DIR}fund-analytics-${name}.png`, fullPage: true });
        await noSeriousViolations(page);

        await open(page, `${server.url}${prefix}/funds/compare`);
        await page.getByTestId('comparison-row').first().waitFor();
        await page.screenshot({ path: `${ARTIFACTS_DIR}fund-comparison-${name}.png`, fullPage: true });
        await noSeriousViolations(page);
        await page.context().close();
      }
    }
  });
});
