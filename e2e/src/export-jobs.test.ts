import { readFile } from 'node:fs/promises';
import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { ARTIFACTS_DIR, newPage, noSeriousViolations, openSignedIn } from './web.ts';

/**
 * Exports in the background (issue 14) from the companies list: the Export
 * menu starts a job, a panel shows its progress (rows of the estimated
 * total, rate, an accessible bar) and then its end with a Download; the file
 * holds every row of the list; a reload shows the job again (`?export=`),
 * and the menu's Recent exports lists it with its download. Light and dark.
 */
describe('export jobs', () => {
  let server: TestServer;
  let browser: Browser;
  /** Enough rows for the job to be seen running for a few seconds (about 20,000 rows/s on PGlite). */
  const BULK = 150_000;
  const named = ['Exported Alpha', 'Exported "Beta", Ltd', 'Exported Gamma'];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    for (const name of named) {
      const created = await server.fetch('/api/v1/companies', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name, city: 'Exportburg' }),
      });
      expect(created.status).toBe(201);
    }
    await server.database.rows(
      sql`insert into companies (name, city, employees)
        select 'Bulk ' || lpad(n::text, 6, '0'), 'Bulkton', n from generate_series(1, ${BULK}) n`,
    );
    // The list's estimate reads the table's statistics, as a live database keeps them.
    await server.database.rows(sql`analyze companies`);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const shot = (page: Page, name: string) => page.screenshot({ path: `${ARTIFACTS_DIR}export-jobs-${name}.png` });

  it('starts a background export, follows it to its end, downloads its file, finds it again after a reload and in recent exports', async () => {
    const page = await newPage(browser, { acceptDownloads: true });
    await openSignedIn(page, `${server.url}/companies`);
    // Sorted by name: the bulk rows come first.
    await page.getByTestId('list-grid').getByText('Bulk 000001', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('menuitem', { name: 'CSV, in the background' }).click();
    const dialog = page.getByRole('dialog', { name: 'Exports' });
    await dialog.waitFor();

    // Running: the bar (named after the file), the rows written of the list's estimated total, the rate.
    const progress = dialog.getByTestId('export-progress');
    await progress.waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get('export')).toMatch(/^\d+$/);
    const jobId = Number(new URL(page.url()).searchParams.get('export'));
    const bar = progress.getByRole('progressbar', { name: /^Progress of companies-\d{4}-\d{2}-\d{2}\.csv$/ });
    // Attached: at 0 % the bar's filled part has no width.
    await bar.waitFor({ state: 'attached' });
    await progress.getByText(/^[\d,]+ of (about )?[\d,]+ rows$/).waitFor();
    await progress.getByText(/rows\/s$/).waitFor();
    await shot(page, '1-progress');
    await noSeriousViolations(page);

    // Done: what it wrote, until when the file is kept, Download.
    const done = dialog.getByTestId('export-done');
    await done.getByText('Export ready').waitFor({ timeout: 180_000 });
    const total = BULK + named.length;
    await done.getByText(`of ${total.toLocaleString('en')} rows`, { exact: false }).waitFor();
    await done.getByText(/^The file is kept until /).waitFor();
    await shot(page, '2-done');
    await noSeriousViolations(page);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      done.getByRole('button', { name: /^Download companies-\d{4}-\d{2}-\d{2}\.csv$/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^companies-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = parse(await readFile(await download.path(), 'utf8'), { bom: true }) as string[][];
    expect(rows[0]?.slice(0, 2)).toEqual(['ID', 'Name']);
    expect(rows).toHaveLength(total + 1);
    const names = new Set(rows.slice(1).map((row) => row[1]));
    for (const name of [...named, 'Bulk 000001', `Bulk ${String(BULK).padStart(6, '0')}`]) {
      expect(names.has(name), name).toBe(true);
    }
    // The bytes the job wrote, as the API serves them.
    const served = await server.fetch(`/api/v1/exports/${jobId}/file`);
    expect(Buffer.from(await served.arrayBuffer()).equals(await readFile(await download.path()))).toBe(true);

    // A reload shows the job again, from the page's address.
    await page.reload();
    await dialog.getByTestId('export-done').getByText('Export ready').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('export')).toBeNull();

    // Recent exports, from the menu: the job with its rows, size, expiry and download.
    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('menuitem', { name: 'Recent exports…' }).click();
    const recent = dialog.getByTestId('recent-exports');
    await recent.waitFor();
    const latest = recent.locator('tbody tr').first();
    await expect.poll(() => latest.locator('td').nth(2).textContent()).toBe('Export ready');
    expect(await latest.locator('td').nth(3).textContent()).toBe(
      `${total.toLocaleString('en')} of ${total.toLocaleString('en')} rows`,
    );
    expect(await latest.locator('td').nth(4).textContent()).toMatch(/^[\d.]+ (kB|MB)$/);
    await shot(page, '3-recent');
    await noSeriousViolations(page);
    const [again] = await Promise.all([
      page.waitForEvent('download'),
      latest.getByRole('button', { name: /^Download companies-.*\.csv \(/ }).click(),
    ]);
    expect(again.suggestedFilename()).toBe(download.suggestedFilename());
    await page.context().close();
  }, 300_000);

  it('lists and opens a recent export in dark mode, readable and with nothing serious for axe', async () => {
    const jobs = (await (await server.fetch('/api/v1/exports')).json()) as { data: { id: number }[] };
    const id = jobs.data[0]?.id as number;
    const page = await newPage(browser, { colorScheme: 'dark' });
    await openSignedIn(page, `${server.url}/companies`);
    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('menuitem', { name: 'Recent exports…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Exports' });
    const latest = dialog.getByTestId('recent-exports').locator('tbody tr').first();
    await latest.getByRole('button', { name: 'Download', exact: false }).waitFor();
    await shot(page, '4-dark-recent');
    await noSeriousViolations(page);
    // Open follows it: its end above, named in the address; it is not listed twice.
    await latest.getByRole('button', { name: /^Open the export companies-.*\.csv \(/ }).click();
    await dialog.getByTestId('export-done').getByText('Export ready').waitFor();
    expect(new URL(page.url()).searchParams.get('export')).toBe(String(id));
    await dialog.getByTestId('recent-exports').waitFor({ state: 'detached' });
    await shot(page, '5-dark-open');
    await noSeriousViolations(page);
    await page.context().close();
  }, 120_000);
});
