import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { ARTIFACTS_DIR, newPage, noSeriousViolations, open, openSignedIn } from './web.ts';

const json = { 'content-type': 'application/json' };

/**
 * Duplicates (issue #16): the companies list leads to its likely duplicates,
 * each pair with why it is listed; "Not duplicates" takes a pair away; Merge
 * opens both companies side by side, a value is picked from the other one,
 * and the company that stays has it, its note and its link, and its timeline
 * tells the change.
 */
describe('merging two companies', () => {
  let server: TestServer;
  let browser: Browser;
  let survivorId: number;
  let mergedId: number;

  async function send(method: string, path: string, body?: unknown) {
    const answer = await server.fetch(`/api/v1/${path}`, {
      method,
      headers: json,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${await answer.text()}`);
    return (await answer.json()) as { id: number; version: number };
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    survivorId = (await send('POST', 'companies', { name: 'Northwind Traders', website: 'https://northwind.example' }))
      .id;
    mergedId = (
      await send('POST', 'companies', {
        name: 'Northwind Traders Ltd',
        website: 'http://www.northwind.example/contact',
        employees: 120,
      })
    ).id;
    await send('POST', 'notes', { entity: 'companies', recordId: mergedId, body: 'Met their buyer at the fair' });
    const contact = await send('POST', 'contacts', {
      firstName: 'Margaret',
      lastName: 'Peacock',
      email: 'margaret@northwind.example',
    });
    await send('POST', 'contactCompanies', { contactId: contact.id, companyId: mergedId, role: 'Buyer' });
    await send('POST', 'companies', { name: 'Contoso Pharma' });
    await send('POST', 'companies', { name: 'Contoso Pharmas' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const pairCard = (page: Page, name: string) =>
    page.getByTestId('duplicate-pair').filter({ has: page.getByRole('link', { name, exact: true }) });

  it('lists likely duplicates with their reasons and dismisses a pair that is not one', async () => {
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/companies`);
    await page.getByRole('link', { name: 'Duplicates' }).click();
    await page.getByRole('heading', { name: 'Duplicates – Companies' }).waitFor();
    const northwind = pairCard(page, 'Northwind Traders Ltd');
    await northwind.waitFor();
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: `${ARTIFACTS_DIR}duplicates-list.png`, fullPage: true });
    const contoso = pairCard(page, 'Contoso Pharmas');
    await contoso.getByText(/Similar name/).waitFor();
    await northwind.getByText('Same domain: northwind.example').waitFor();
    await northwind.getByText(/^Similar name \(\d+ % alike\)$/).waitFor();
    await noSeriousViolations(page);

    await contoso.getByRole('button', { name: 'Not duplicates' }).click();
    await page.getByText('will no longer be listed as duplicates').waitFor();
    await expect.poll(() => contoso.count()).toBe(0);
    // Remembered: a fresh visit does not list it either.
    await open(page, `${server.url}/companies/duplicates`);
    await pairCard(page, 'Northwind Traders Ltd').waitFor();
    expect(await pairCard(page, 'Contoso Pharmas').count()).toBe(0);
    await page.context().close();
  });

  it('merges two companies, picking a value from each, and the survivor has the links, notes and history', async () => {
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/companies/duplicates`);
    await pairCard(page, 'Northwind Traders Ltd').getByRole('button', { name: 'Merge…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Merge two records' });
    await dialog.getByTestId('merge-survivor-name').getByText('Northwind Traders', { exact: true }).waitFor();
    // The other company's employee count is the only one: picked by default. The name is the survivor's unless picked.
    expect(await dialog.getByRole('radio', { name: 'Employees: Northwind Traders Ltd' }).isChecked()).toBe(true);
    expect(await dialog.getByRole('radio', { name: 'Name: Northwind Traders', exact: true }).isChecked()).toBe(true);
    await dialog.getByRole('radio', { name: 'Website: Northwind Traders Ltd' }).check();
    await dialog.screenshot({ path: `${ARTIFACTS_DIR}duplicates-merge-dialog.png` });
    await noSeriousViolations(page);
    await dialog.getByRole('button', { name: 'Merge', exact: true }).click();

    const done = page.getByTestId('merge-done');
    await done.getByText('Merged into “Northwind Traders”.').waitFor();
    // Nothing asks for the merged company any more: no failure shows.
    expect(await page.getByText(/was not found/).count()).toBe(0);
    await expect.poll(() => pairCard(page, 'Northwind Traders Ltd').count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS_DIR}duplicates-merged.png`, fullPage: true });
    await done.getByRole('link', { name: 'Open' }).click();

    await page.waitForURL(`**/companies/${survivorId}/show`);
    const details = page.getByRole('region', { name: 'Details' });
    await details.getByText('northwind.example/contact').waitFor();
    await details.getByText('120').waitFor();
    await page.getByTestId('note').getByText('Met their buyer at the fair').waitFor();
    await page.getByText('Margaret Peacock').first().waitFor();
    const timeline = page.getByRole('region', { name: 'Activity' });
    await timeline
      .getByText(/Website/)
      .first()
      .waitFor();
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: `${ARTIFACTS_DIR}duplicates-survivor.png`, fullPage: true });

    const gone = await server.fetch(`/api/v1/companies/${mergedId}`);
    expect(gone.status).toBe(404);
    await page.context().close();
  });
});
