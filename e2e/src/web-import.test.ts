import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { ARTIFACTS_DIR, newPage, noSeriousViolations, openImportWizard } from './web.ts';

/**
 * The list's Import in all-or-nothing mode (the wizard's default): a bad row imports nothing and is listed; rows
 * written before a bad row met later are taken back.
 */
describe('import from the list', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const file = (rows: string[]) => ({
    name: 'companies.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(['Name,City,Stage', ...rows].join('\n')),
  });

  /** Uploads `rows` in the open wizard and imports them with the suggested mapping, all or nothing. */
  async function importRows(dialog: Locator, rows: string[]) {
    await dialog.locator('input[type="file"]').setInputFiles(file(rows));
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await dialog.getByTestId('import-mapping').waitFor();
    await dialog.getByRole('button', { name: 'Preview', exact: true }).click();
    await dialog.getByTestId('import-preview').waitFor();
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.getByTestId('import-done').waitFor();
  }

  /** A new page signed in on the companies list, its import wizard open. */
  async function openWizard(): Promise<{ page: Page; dialog: Locator }> {
    const page = await newPage(browser);
    const dialog = await openImportWizard(page, `${server.url}/companies`);
    return { page, dialog };
  }

  it('lists each bad row and imports nothing, then imports the mended file into the list', async () => {
    const { page, dialog } = await openWizard();

    await importRows(dialog, ['Imported Alpha,Lyon,Seed', ',Lyon,Seed']);
    await page.screenshot({ path: `${ARTIFACTS_DIR}web-import-failed.png` });
    await dialog.getByText('Import failed').waitFor();
    const problems = dialog.getByTestId('import-problems');
    await expect
      .poll(() => problems.getByRole('row').nth(1).getByRole('cell').allTextContents())
      .toEqual(['3', 'Name', 'Required']);
    // Nothing was written: nothing to undo; the bad row can be downloaded.
    expect(await dialog.getByRole('button', { name: 'Undo' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Download bad rows' }).waitFor();
    await noSeriousViolations(page);
    const none = await server.fetch('/api/v1/companies?count=exact&filter[name][eq]=Imported%20Alpha');
    expect(((await none.json()) as { total: number }).total).toBe(0);
    await dialog.getByRole('button', { name: 'Show the list' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.waitFor();
    await importRows(dialog, ['Imported Alpha,Lyon,Seed', 'Imported Beta,Nantes,Growth']);
    await dialog.getByText('Import finished').waitFor();
    await expect
      .poll(() => dialog.getByTestId('import-counts').getByRole('row', { name: 'Created' }).locator('td').textContent())
      .toBe('2');
    await dialog.getByRole('button', { name: 'Show the list' }).click();
    await dialog.waitFor({ state: 'detached' });
    const grid = page.getByTestId('list-grid');
    await grid.getByText('Imported Alpha').waitFor();
    await grid.getByText('Imported Beta').waitFor();
  }, 180_000);

  it('takes back the rows written before a bad row met later in the file, and says so', async () => {
    const { page, dialog } = await openWizard();
    // Rows are checked as they are written: the first batch (100 rows) is written before row 251 is met.
    const rows = Array.from({ length: 300 }, (_, i) => (i === 249 ? ',Lyon,Seed' : `Late ${i + 1},Lyon,Seed`));
    await importRows(dialog, rows);
    await dialog.getByText('Import failed').waitFor();
    await dialog.getByText('1 of 300 rows cannot be imported; nothing was imported.', { exact: false }).waitFor();
    const takenBack = dialog.getByTestId('import-undo');
    await takenBack.getByText('Taken back', { exact: true }).waitFor();
    expect(await takenBack.textContent()).toMatch(
      /What it had written was taken back: [\d,]+ records deleted, 0 restored/,
    );
    expect(
      await dialog.getByTestId('import-counts').getByRole('row', { name: 'Created' }).locator('td').textContent(),
    ).toBe('0');
    expect(await dialog.getByRole('button', { name: 'Undo' }).count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS_DIR}web-import-taken-back.png` });
    await noSeriousViolations(page);
    const none = await server.fetch('/api/v1/companies?count=exact&filter[city][eq]=Lyon&q=Late');
    expect(((await none.json()) as { total: number }).total).toBe(0);
  }, 180_000);
});
