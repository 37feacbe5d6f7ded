import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { newPage, noSeriousViolations, openSignedIn } from './web.ts';

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

  it('lists each bad row and imports nothing, then imports the mended file into the list', async () => {
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/companies`);
    await page.getByRole('button', { name: 'Import' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import' });
    await dialog.waitFor();

    const file = (rows: string[]) => ({
      name: 'companies.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(['Name,City,Stage', ...rows].join('\n')),
    });
    await dialog.locator('input[type="file"]').setInputFiles(file(['Imported Alpha,Lyon,Seed', ',Lyon,Seed']));
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.getByText('1 of 2 rows cannot be imported; nothing was imported.', { exact: false }).waitFor();
    const errors = dialog.getByTestId('import-errors');
    await expect
      .poll(() => errors.getByRole('row').nth(1).getByRole('cell').allTextContents())
      .toEqual(['3', 'Name', 'Required']);
    await noSeriousViolations(page);
    const none = await server.fetch('/api/v1/companies?count=exact&filter[name][eq]=Imported%20Alpha');
    expect(((await none.json()) as { total: number }).total).toBe(0);

    await dialog
      .locator('input[type="file"]')
      .setInputFiles(file(['Imported Alpha,Lyon,Seed', 'Imported Beta,Nantes,Growth']));
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('Imported 2 records').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const grid = page.getByTestId('list-grid');
    await grid.getByText('Imported Alpha').waitFor();
    await grid.getByText('Imported Beta').waitFor();
  });
});
