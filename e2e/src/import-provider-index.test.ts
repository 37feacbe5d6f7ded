import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { ARTIFACTS_DIR, newPage, noSeriousViolations, openImportWizard, picker } from './web.ts';

/**
 * An index provider's total-return export loaded into Index levels (issue
 * 15) through the import wizard, as the file comes: no Index column (the
 * Index is given once, for every row, with the record picker), the level
 * under the index's own name ("MSCI WORLD"), dates as `Dec 31, 2004` and
 * levels as `3,421.567`; then the levels on the index's page. And files
 * whose dates or numbers could be read either way: the order of day and
 * month, and the decimal mark, asked once or per column.
 */
describe('provider index import', () => {
  let server: TestServer;
  let browser: Browser;
  let indexId: number;
  const indexName = 'MSCI World (demo)';

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    const created = await server.fetch('/api/v1/benchmarkIndexes', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: indexName, currency: 'USD', source: 'MSCI' }),
    });
    if (created.status !== 201) throw new Error(`Creating the index answered ${created.status}`);
    indexId = ((await created.json()) as { id: number }).id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const shot = (page: Page, name: string) =>
    page.screenshot({ path: `${ARTIFACTS_DIR}import-provider-index-${name}.png` });

  /** Picks `option` in the select named `name` inside `scope`. */
  async function choose(page: Page, scope: Locator, name: string, option: string) {
    await picker(scope, name).click();
    await page.getByRole('option', { name: option, exact: true }).click();
    await expect.poll(() => picker(scope, name).inputValue()).toBe(option);
  }

  /** Opens the wizard on Index levels, uploads `csv` as `name` and gives the index for every row: the map step. */
  async function uploadWithIndex(page: Page, name: string, csv: string): Promise<Locator> {
    const dialog = await openImportWizard(page, `${server.url}/index-levels`);
    await dialog.locator('input[type="file"]').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    const fixed = dialog.getByTestId('import-fixed');
    await fixed.waitFor();
    await picker(fixed, 'Index').fill('MSCI');
    await page.getByRole('option', { name: indexName, exact: true }).click();
    return dialog;
  }

  it('imports an MSCI-like export with the Index fixed to the index, and shows the levels on its page', async () => {
    const page = await newPage(browser);
    const dialog = await openImportWizard(page, `${server.url}/index-levels`);

    // The file as the provider's export, saved by a spreadsheet, has it.
    const csv = [
      'Date,MSCI WORLD',
      '"Dec 31, 2004","3,421.567"',
      '"Jan 31, 2005","3,338.41"',
      '"Feb 28, 2005","3,460.002"',
    ].join('\r\n');
    await dialog.locator('input[type="file"]').setInputFiles({
      name: 'msci-world.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();

    // Map: Date is suggested; the level column, named after the index, is mapped by hand.
    const mapping = dialog.getByTestId('import-mapping');
    await mapping.waitFor();
    expect(await picker(mapping, 'Field for column “Date”').inputValue()).toBe('Date *');
    expect(await picker(mapping, 'Field for column “MSCI WORLD”').inputValue()).toBe('Skip this column');
    await choose(page, mapping, 'Field for column “MSCI WORLD”', 'Level *');

    // The Index has no column: it is required, so it is listed for a value for every row.
    const fixed = dialog.getByTestId('import-fixed');
    await fixed.waitFor();
    await fixed.getByText('Required: map a column to it or give a value for every row').waitFor();
    // No date of this file could be read two ways: no day/month order is asked.
    expect(await dialog.getByTestId('import-date-order').count()).toBe(0);
    await shot(page, '1-map');
    await noSeriousViolations(page);
    const index = picker(fixed, 'Index');
    await index.fill('MSCI World');
    await page.getByRole('option', { name: indexName, exact: true }).click();
    await expect.poll(() => index.inputValue()).toBe(indexName);
    await fixed.getByText('Required: map a column to it or give a value for every row').waitFor({ state: 'detached' });
    await shot(page, '2-fixed');
    await noSeriousViolations(page);

    // Preview: every row with the index, the dates and levels read as the file writes them.
    await dialog.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = dialog.getByTestId('import-preview');
    await preview.waitFor();
    await dialog.getByText('No problem in these 3 rows.').waitFor();
    expect(await preview.getByRole('columnheader').allTextContents()).toEqual([
      'Row',
      'Date',
      'Level',
      'Index',
      'Other problems',
    ]);
    const rows = preview.locator('tbody tr');
    await expect
      .poll(() => rows.nth(0).locator('td').allTextContents())
      .toEqual(['2004-12-31', '3421.567', indexName, '']);
    expect(await rows.nth(2).locator('td').allTextContents()).toEqual(['2005-02-28', '3460.002', indexName, '']);
    await shot(page, '3-preview');

    // Import, and the job's end.
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const done = dialog.getByTestId('import-done');
    await done.waitFor();
    await done.getByText('Import finished').waitFor();
    const counts = done.getByTestId('import-counts');
    expect(await counts.getByRole('row', { name: 'Created' }).locator('td').textContent()).toBe('3');
    await shot(page, '4-done');

    // The index's page lists its levels.
    await page.goto(`${server.url}/benchmark-indexes/${indexId}/show`);
    const panel = page.getByRole('region', { name: 'Index levels' });
    const table = panel.getByRole('table', { name: 'Index levels' });
    await table.waitFor();
    const levels = table.locator('tbody tr');
    await expect.poll(() => levels.count()).toBe(3);
    // Newest first, levels shown to two decimals.
    expect(await Promise.all([0, 1, 2].map((i) => levels.nth(i).locator('th, td').allTextContents()))).toEqual([
      [expect.stringContaining('Feb 28, 2005'), expect.stringContaining('3,460')],
      [expect.stringContaining('Jan 31, 2005'), expect.stringContaining('3,338.41')],
      [expect.stringContaining('Dec 31, 2004'), expect.stringContaining('3,421.57')],
    ]);
    await shot(page, '5-index-page');
    // Stored as the file wrote them, to the last decimal.
    const stored = await server.fetch(`/api/v1/indexLevels?filter[indexId][eq]=${indexId}&sort=date`);
    const data = ((await stored.json()) as { data: { date: string; level: number | string }[] }).data;
    expect(data.map((row) => [row.date.slice(0, 10), Number(row.level)])).toEqual([
      ['2004-12-31', 3421.567],
      ['2005-01-31', 3338.41],
      ['2005-02-28', 3460.002],
    ]);
  }, 180_000);

  it('asks the order of day and month when every date could be read either way, suggested from the language', async () => {
    const page = await newPage(browser);
    // A European spreadsheet's CSV: semicolons, day-first dates none of which has a day over 12, decimal commas.
    const csv = ['Date;Level', '01/02/2005;"3 421,567"', '03/04/2005;"3 338,41"'].join('\r\n');
    const dialog = await uploadWithIndex(page, 'levels.csv', csv);

    // The interface is in English: month first is suggested.
    const order = dialog.getByTestId('import-date-order');
    await order.waitFor();
    await order.getByText('Every date in “Date” could be read either way: say which comes first.').waitFor();
    expect(await order.getByRole('radio', { name: 'Month first (12/31/2004)' }).isChecked()).toBe(true);
    await order.getByRole('radio', { name: 'Day first (31/12/2004)' }).check();
    await shot(page, '6-date-order');
    await noSeriousViolations(page);

    await dialog.getByRole('button', { name: 'Preview', exact: true }).click();
    const rows = dialog.getByTestId('import-preview').locator('tbody tr');
    await expect
      .poll(() => rows.nth(0).locator('td').allTextContents())
      .toEqual(['2005-02-01', '3421.567', indexName, '']);
    expect(await rows.nth(1).locator('td').allTextContents()).toEqual(['2005-04-03', '3338.41', indexName, '']);
  }, 120_000);

  it('asks the order and the mark per column when several columns need them, and stores each as chosen', async () => {
    const page = await newPage(browser);
    const dialog = await openImportWizard(page, `${server.url}/funds`);
    // Two date columns and two amount columns, none of whose values tells how it is written.
    const csv = [
      'Name;Currency;First close date;Final close date;Target size;Hard cap',
      'Per Column Fund A;EUR;01/02/2005;03/04/2006;3,421;1.234',
      'Per Column Fund B;EUR;05/06/2005;07/08/2006;1,500;2.500',
    ].join('\r\n');
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: 'funds.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();

    // A choice per column, each preselected with the interface's (English: month first, a decimal point).
    const order = dialog.getByTestId('import-date-order');
    await order
      .getByText('Every date in these columns could be read either way: say which comes first in each column.')
      .waitFor();
    const first = order.getByRole('radiogroup', { name: 'Column “First close date”' });
    const final = order.getByRole('radiogroup', { name: 'Column “Final close date”' });
    for (const group of [first, final]) {
      expect(await group.getByRole('radio', { name: 'Month first (12/31/2004)' }).isChecked()).toBe(true);
    }
    await first.getByRole('radio', { name: 'Day first (31/12/2004)' }).check();
    const mark = dialog.getByTestId('import-decimal-mark');
    const target = mark.getByRole('radiogroup', { name: 'Column “Target size”' });
    const cap = mark.getByRole('radiogroup', { name: 'Column “Hard cap”' });
    expect(await cap.getByRole('radio', { name: 'Decimal point (1,234.5)' }).isChecked()).toBe(true);
    await target.getByRole('radio', { name: 'Decimal comma (1.234,5)' }).check();
    expect(await final.getByRole('radio', { name: 'Month first (12/31/2004)' }).isChecked()).toBe(true);
    await order.scrollIntoViewIfNeeded();
    await shot(page, '8-per-column');
    await noSeriousViolations(page);

    // The preview reads each column as chosen.
    await dialog.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = dialog.getByTestId('import-preview');
    await preview.waitFor();
    const headings = await preview.getByRole('columnheader').allTextContents();
    const cells = async (row: number) => {
      const texts = await preview.locator('tbody tr').nth(row).locator('th, td').allTextContents();
      return ['First close date', 'Final close date', 'Target size', 'Hard cap'].map(
        (heading) => texts[headings.indexOf(heading)],
      );
    };
    await expect.poll(() => cells(0)).toEqual(['2005-02-01', '2006-03-04', '3.421', '1.234']);
    expect(await cells(1)).toEqual(['2005-06-05', '2006-07-08', '1.5', '2.5']);

    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const done = dialog.getByTestId('import-done');
    await done.getByText('Import finished').waitFor();
    expect(
      await done.getByTestId('import-counts').getByRole('row', { name: 'Created' }).locator('td').textContent(),
    ).toBe('2');
    // Stored as chosen, column by column.
    const stored = await server.fetch('/api/v1/funds?filter[name][contains]=Per Column Fund&sort=name');
    const funds = (
      (await stored.json()) as {
        data: { firstCloseDate: string; finalCloseDate: string; targetSize: string; hardCap: string }[];
      }
    ).data;
    expect(
      funds.map((fund) => [
        fund.firstCloseDate.slice(0, 10),
        fund.finalCloseDate.slice(0, 10),
        Number(fund.targetSize),
        Number(fund.hardCap),
      ]),
    ).toEqual([
      ['2005-02-01', '2006-03-04', 3.421, 1.234],
      ['2005-06-05', '2006-07-08', 1.5, 2.5],
    ]);
  }, 120_000);

  it('asks the decimal mark when every number could be read either way, suggested from the language', async () => {
    const page = await newPage(browser);
    // Levels with one mark and three digits after it: thousands, or decimals?
    const csv = ['Date;Level', '2005-01-31;"3,421"', '2005-02-28;"1.234"'].join('\r\n');
    const dialog = await uploadWithIndex(page, 'marks.csv', csv);

    // The interface is in English: a decimal point is suggested; no date here needs an order.
    const mark = dialog.getByTestId('import-decimal-mark');
    await mark.waitFor();
    await mark.getByText('Every number in “Level” could be read either way: say what its mark is.').waitFor();
    expect(await dialog.getByTestId('import-date-order').count()).toBe(0);
    expect(await mark.getByRole('radio', { name: 'Decimal point (1,234.5)' }).isChecked()).toBe(true);
    await mark.getByRole('radio', { name: 'Decimal comma (1.234,5)' }).check();
    await shot(page, '7-decimal-mark');
    await noSeriousViolations(page);

    await dialog.getByRole('button', { name: 'Preview', exact: true }).click();
    const rows = dialog.getByTestId('import-preview').locator('tbody tr');
    await expect
      .poll(() => rows.nth(0).locator('td').allTextContents())
      .toEqual(['2005-01-31', '3.421', indexName, '']);
    expect(await rows.nth(1).locator('td').allTextContents()).toEqual(['2005-02-28', '1234', indexName, '']);
  }, 120_000);
});
