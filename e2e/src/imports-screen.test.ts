import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { ARTIFACTS_DIR, activeUser, newPage, noSeriousViolations, open, openSignedIn } from './web.ts';

/**
 * The Imports screen (issue 14): every import of the user, of any kind of
 * record, newest first, a page at a time; Open goes back to the wizard on a
 * job from its records' list.
 */
describe('imports screen', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const shot = (page: Page, name: string) => page.screenshot({ path: `${ARTIFACTS_DIR}imports-screen-${name}.png` });

  /** Imports a file of one name over the API, as the administrator, and waits for the job to finish. */
  async function importName(entity: string, fileName: string, name: string): Promise<void> {
    const form = new FormData();
    form.append('file', new Blob([`Name\n${name}\n`]), fileName);
    const uploaded = await server.fetch(`/api/v1/imports/uploads?entity=${entity}`, { method: 'POST', body: form });
    const { uploadId } = (await uploaded.json()) as { uploadId: number };
    const started = await server.fetch('/api/v1/imports', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ entity, uploadId, mapping: [{ field: 'name' }] }),
    });
    const { id } = (await started.json()) as { id: number };
    await expect
      .poll(async () => ((await (await server.fetch(`/api/v1/imports/${id}`)).json()) as { status: string }).status)
      .toBe('succeeded');
  }

  it('lists an import made in the wizard among older ones of another kind, and opens it in the wizard', async () => {
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/imports`);
    // Nothing imported yet: the screen says how to start, with the lists whose Import the user has.
    const empty = page.getByTestId('imports-empty');
    await empty.getByText('You have not imported anything yet.').waitFor();
    await empty.getByText('To import records, open their list and choose Import:').waitFor();
    const lists = empty.getByRole('list', { name: 'Lists you can import into' });
    expect(await lists.getByRole('link', { name: 'Index levels' }).count()).toBe(1);
    await shot(page, '0-empty');
    await noSeriousViolations(page);

    // Older imports, of firms, through the API: more than one page of the screen.
    for (let i = 1; i <= 20; i++) await importName('firms', `firms-${i}.csv`, `Listed Firm ${i}`);

    // The wizard imports a small file from the companies' list.
    await lists.getByRole('link', { name: 'Companies' }).click();
    await page.getByRole('heading', { level: 1, name: 'Companies' }).waitFor();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Import' });
    await dialog.locator('input[type="file"]').setInputFiles({
      name: 'screen-companies.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('Name,City\nScreen Alpha,Lyon\nScreen Beta,Nantes\n'),
    });
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await dialog.getByTestId('import-mapping').waitFor();
    await dialog.getByRole('button', { name: 'Preview', exact: true }).click();
    await dialog.getByTestId('import-preview').waitFor();
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.getByText('Import finished').waitFor();
    await dialog.getByRole('button', { name: 'Show the list' }).click();
    await dialog.waitFor({ state: 'detached' });

    // From the sidebar.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Imports' }).click();
    await page.getByRole('heading', { level: 1, name: 'Imports' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/imports');
    const table = page.getByTestId('imports');
    const rows = table.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(20);
    const cells = (index: number) => rows.nth(index).getByRole('cell').allTextContents();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([
      'When',
      'Record type',
      'File',
      'Outcome',
      'Records',
      'Open',
    ]);
    expect((await cells(0)).slice(1)).toEqual([
      'Companies',
      'screen-companies.csv',
      'Import finished',
      '2 created, 0 updated, 0 not imported',
      'Open',
    ]);
    expect((await cells(1)).slice(1, 3)).toEqual(['Firms', 'firms-20.csv']);
    // The pointer leaves the sidebar link it clicked: an active link under the pointer is the shell's hover colour.
    await page.mouse.move(640, 20);
    await shot(page, '1-list');
    await noSeriousViolations(page);

    // The next page: the oldest import last, each once.
    await page.getByRole('button', { name: 'Load More...' }).click();
    await expect.poll(() => rows.count()).toBe(21);
    expect((await cells(20)).slice(1, 3)).toEqual(['Firms', 'firms-1.csv']);
    expect(await page.getByRole('button', { name: 'Load More...' }).count()).toBe(0);

    // Open, with the keyboard: the companies' list, the wizard on that job and its result.
    const openLink = rows.first().getByRole('link', { name: /^Open the import of screen-companies\.csv/ });
    await openLink.focus();
    await page.keyboard.press('Enter');
    await dialog.getByTestId('import-done').waitFor();
    await dialog.getByText('Import finished').waitFor();
    const url = new URL(page.url());
    expect(url.pathname).toBe('/companies');
    expect(url.searchParams.get('import')).toMatch(/^\d+$/);
    await expect
      .poll(() => dialog.getByTestId('import-counts').getByRole('row', { name: 'Created' }).locator('td').textContent())
      .toBe('2');
    await shot(page, '2-opened');

    // In French, at its French address.
    await page.goto(`${server.url}/fr/imports`);
    await page.getByRole('heading', { level: 1, name: 'Imports' }).waitFor();
    await page.getByRole('columnheader', { name: 'Type de fiche' }).waitFor();
    expect((await cells(0)).slice(1, 4)).toEqual(['Entreprises', 'screen-companies.csv', 'Import terminé']);
    await page.getByRole('button', { name: 'Charger plus...' }).waitFor();
    await page.context().close();
  }, 240_000);

  it('is not offered to a user who may import nothing', async () => {
    const viewer = await activeUser(server, 'Viewer');
    const page = await newPage(browser, { storage: { token: viewer.token } });
    await open(page, `${server.url}/`);
    await page.getByTestId('user-menu').waitFor();
    expect(await page.getByRole('navigation').getByRole('link', { name: 'Imports' }).count()).toBe(0);
    await open(page, `${server.url}/imports`);
    await page.getByRole('heading', { name: 'Error', exact: true }).waitFor();
    expect(await page.getByTestId('error-text').textContent()).toBe('Forbidden');
    await page.context().close();
  });
});
