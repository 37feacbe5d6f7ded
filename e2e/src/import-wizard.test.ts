import { readFile } from 'node:fs/promises';
import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { ARTIFACTS_DIR, createRecord, newPage, noSeriousViolations, openImportWizard, picker } from './web.ts';

/**
 * The import wizard (issue 14) from a list, the whole way: upload a file whose
 * headings and picklist values are not the fields' and options' own, map them
 * (suggestions kept, one column and one value mapped by hand), see the problem
 * row in the preview, import skipping bad rows, follow the job to its end (and
 * again after a reload), download the bad rows, export the list, undo.
 */
describe('import wizard', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const shot = (page: Page, name: string) => page.screenshot({ path: `${ARTIFACTS_DIR}import-wizard-${name}.png` });

  /** Picks `option` in the select named `name` inside `scope`. */
  async function choose(page: Page, scope: Locator, name: string, option: string) {
    await picker(scope, name).click();
    await page.getByRole('option', { name: option, exact: true }).click();
    await expect.poll(() => picker(scope, name).inputValue()).toBe(option);
  }

  const countNamed = async (name: string) => {
    const answer = await server.fetch(`/api/v1/companies?count=exact&filter[name][eq]=${encodeURIComponent(name)}`);
    return ((await answer.json()) as { total: number }).total;
  };

  it('maps columns and picklist values, previews the problem row, imports skipping it, downloads it, exports, undoes', async () => {
    const page = await newPage(browser, { acceptDownloads: true });
    const dialog = await openImportWizard(page, `${server.url}/companies`);

    // Upload.
    const csv = [
      'Company Name,Business,Round,City,Country',
      'Wizard Alpha,tech,seed,Lyon,FR',
      'Wizard Beta,FINTECH,series a,Nantes,fra',
      ',tech,Seed,Paris,France',
      'Wizard Gamma,widgets,Growth,Lille,FR',
    ].join('\n');
    await dialog.locator('input[type="file"]').setInputFiles({
      name: 'wizard.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await shot(page, '1-upload');
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();

    // Map columns: "Company Name" and "Round" are suggested (synonyms); "Business" is mapped by hand.
    const mapping = dialog.getByTestId('import-mapping');
    await mapping.waitFor();
    expect(await picker(mapping, 'Field for column “Company Name”').inputValue()).toBe('Name *');
    expect(await picker(mapping, 'Field for column “Round”').inputValue()).toBe('Stage');
    expect(await picker(mapping, 'Field for column “City”').inputValue()).toBe('City');
    expect(await picker(mapping, 'Field for column “Country”').inputValue()).toBe('HQ country');
    expect(await picker(mapping, 'Field for column “Business”').inputValue()).toBe('Skip this column');
    await choose(page, mapping, 'Field for column “Business”', 'Industry');

    // Picklist values: the suggestions are preselected; "widgets" matches no option and is mapped by hand.
    const industries = dialog.getByTestId('import-values-industry');
    await industries.waitFor();
    expect(await picker(industries, 'Industry option for “tech”').inputValue()).toBe('Software');
    expect(await picker(industries, 'Industry option for “FINTECH”').inputValue()).toBe('Fintech');
    expect(await picker(industries, 'Industry option for “widgets”').inputValue()).toBe('');
    await industries.getByText('No option matches: choose one').waitFor();
    const stages = dialog.getByTestId('import-values-stage');
    expect(await picker(stages, 'Stage option for “seed”').inputValue()).toBe('Seed');
    expect(await picker(stages, 'Stage option for “series a”').inputValue()).toBe('Series A');
    await shot(page, '2-map');
    await noSeriousViolations(page);
    await choose(page, industries, 'Industry option for “widgets”', 'Other');

    // Preview: the rows as they will be stored, the row without a name flagged in its cell.
    await dialog.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = dialog.getByTestId('import-preview');
    await preview.waitFor();
    await dialog.getByText('1 of these 4 rows has a problem.').waitFor();
    const rows = preview.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(4);
    await expect
      .poll(() => rows.nth(0).locator('td').allTextContents())
      .toEqual(['Wizard Alpha', 'Software', 'Seed', 'Lyon', 'France', '']);
    // A reference shows by the name of the record found (the file's "fra" is France's ISO code).
    expect(await rows.nth(1).locator('td').allTextContents()).toEqual([
      'Wizard Beta',
      'Fintech',
      'Series A',
      'Nantes',
      'France',
      '',
    ]);
    expect(await rows.nth(3).locator('td').allTextContents()).toEqual([
      'Wizard Gamma',
      'Other',
      'Growth',
      'Lille',
      'France',
      '',
    ]);
    const bad = preview.locator('tbody tr[data-problem]');
    expect(await bad.count()).toBe(1);
    expect(await bad.locator('th').textContent()).toBe('4');
    expect(await bad.locator('td[data-problem]').count()).toBe(1);
    await bad.locator('td[data-problem]').getByText('Required').waitFor();

    // Duplicates by name, skipped; skip bad rows.
    await choose(page, dialog, 'Duplicates matched on', 'Name');
    await choose(page, dialog, 'A duplicate is', 'Skipped');
    await preview.getByRole('columnheader', { name: 'Action' }).waitFor();
    await expect.poll(() => rows.nth(0).locator('td').first().textContent()).toBe('Create');
    await choose(page, dialog, 'Mode', 'Skip bad rows');
    await shot(page, '3-preview');
    await noSeriousViolations(page);

    // Import: the job runs on the server; its end shows what it did.
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const done = dialog.getByTestId('import-done');
    await done.waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get('import')).toMatch(/^\d+$/);
    const jobId = new URL(page.url()).searchParams.get('import');
    const counts = done.getByTestId('import-counts');
    const count = (name: string) => counts.getByRole('row', { name }).locator('td').textContent();
    await done.getByText('Import finished').waitFor();
    expect(await count('Created')).toBe('3');
    expect(await count('Not imported (bad rows)')).toBe('1');
    await shot(page, '4-done');
    await noSeriousViolations(page);
    for (const name of ['Wizard Alpha', 'Wizard Beta', 'Wizard Gamma']) expect(await countNamed(name)).toBe(1);

    // A reload opens the wizard on the same job.
    await page.reload();
    await dialog.getByTestId('import-done').waitFor();
    expect(await count('Created')).toBe('3');
    await shot(page, '5-reloaded');

    // The bad rows, as the file wrote them, with why.
    const [badRows] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download bad rows' }).click(),
    ]);
    expect(badRows.suggestedFilename()).toBe('wizard-bad-rows.csv');
    const badLines = (await readFile(await badRows.path(), 'utf8'))
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(badLines[0]).toBe('Company Name,Business,Round,City,Country,Error');
    expect(badLines.slice(1)).toEqual([expect.stringMatching(/^,tech,Seed,Paris,France,.*Required/)]);

    // Back to the list: the imported rows show; the list's Export writes them.
    await dialog.getByRole('button', { name: 'Show the list' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('import')).toBeNull();
    const grid = page.getByTestId('list-grid');
    await grid.getByText('Wizard Gamma').waitFor();
    const [exported] = await Promise.all([
      page.waitForEvent('download'),
      (async () => {
        await page.getByRole('button', { name: 'Export' }).click();
        await page.getByRole('menuitem', { name: 'CSV (comma-separated)' }).click();
      })(),
    ]);
    expect(exported.suggestedFilename()).toMatch(/^companies-\d{4}-\d{2}-\d{2}\.csv$/);
    const exportLines = (await readFile(await exported.path(), 'utf8'))
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(exportLines[0]).toMatch(/^ID,Name,Industry,Stage,/);
    expect(exportLines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\d+,Wizard Alpha,Software,Seed,/),
        expect.stringMatching(/^\d+,Wizard Beta,Fintech,Series A,/),
        expect.stringMatching(/^\d+,Wizard Gamma,Other,Growth,/),
      ]),
    );

    // Undo, from the job reopened by its address: what it created is deleted.
    await page.goto(`${server.url}/companies?import=${jobId}`);
    await dialog.getByTestId('import-done').waitFor();
    await dialog.getByRole('button', { name: 'Undo' }).click();
    await dialog.getByText('Import undone').waitFor();
    await dialog.getByTestId('import-undo').getByText('Deleted: 3, restored: 0', { exact: false }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Undo' }).count()).toBe(0);
    await shot(page, '6-undone');
    for (const name of ['Wizard Alpha', 'Wizard Beta', 'Wizard Gamma']) expect(await countNamed(name)).toBe(0);
    await dialog.getByRole('button', { name: 'Show the list' }).click();
    await grid.getByText('Wizard Gamma').waitFor({ state: 'detached' });
    // Closed (its steps are buttons too, one of them named Import) before the list's Import opens it again.
    await dialog.waitFor({ state: 'detached' });

    // The wizard's first step lists the latest imports; Open follows one again.
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const recent = dialog.getByTestId('recent-imports');
    await recent.waitFor();
    const latest = recent.locator('tbody tr').first();
    await expect
      .poll(() => latest.locator('td').allTextContents())
      .toEqual([expect.any(String), 'wizard.csv', 'Import undone', '3 created, 0 updated, 1 not imported', 'Open']);
    await noSeriousViolations(page);
    await shot(page, '7-recent');
    await latest.getByRole('button', { name: /^Open the import of wizard\.csv/ }).click();
    await dialog.getByTestId('import-done').getByText('Import undone').waitFor();
    expect(new URL(page.url()).searchParams.get('import')).toBe(jobId);
  }, 240_000);

  it('previews an update by id as the records will be: unchanged values shown, a changed one with what it was', async () => {
    const moving = await createRecord(server, 'companies', { name: 'Update Moving', city: 'Lyon', employees: 10 });
    const staying = await createRecord(server, 'companies', { name: 'Update Staying', city: 'Nantes', employees: 4 });
    const page = await newPage(browser);
    const dialog = await openImportWizard(page, `${server.url}/companies`);
    const csv = [
      'ID,Name,City,Employees',
      `${moving.id},Update Moving,Paris,10`,
      `${staying.id},Update Staying,Nantes,4`,
    ];
    await dialog.locator('input[type="file"]').setInputFiles({
      name: 'update.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv.join('\n')),
    });
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    const mapping = dialog.getByTestId('import-mapping');
    await mapping.waitFor();
    expect(await picker(mapping, 'Field for column “ID”').inputValue()).toBe('ID (of a stored record, to update it)');
    await dialog.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = dialog.getByTestId('import-preview');
    await preview.waitFor();
    // The file's IDs are used only when duplicates are matched on them: until then the preview says so.
    const idsUnused = dialog.getByTestId('import-ids-unused');
    await idsUnused.getByText('every row creates a new record', { exact: false }).waitFor();
    await choose(page, dialog, 'Duplicates matched on', 'ID');
    await choose(page, dialog, 'A duplicate is', 'Updated');
    await idsUnused.waitFor({ state: 'detached' });
    const rows = preview.locator('tbody tr');
    await expect.poll(() => rows.nth(0).locator('td').first().textContent()).toBe('Update');
    // Every value the record will hold; the one that changes marked, with the value it replaces.
    expect(await rows.nth(0).locator('td').allTextContents()).toEqual([
      'Update',
      String(moving.id),
      'Update Moving',
      'ParisWas Lyon',
      '10',
      '',
    ]);
    expect(await rows.nth(0).locator('td[data-changed]').count()).toBe(1);
    expect(await rows.nth(1).locator('td').allTextContents()).toEqual([
      'Unchanged',
      String(staying.id),
      'Update Staying',
      'Nantes',
      '4',
      '',
    ]);
    expect(await rows.nth(1).locator('td[data-changed]').count()).toBe(0);
    await noSeriousViolations(page);
    await shot(page, 'update-preview');
    // In dark too: the marked cell and what it was stay readable.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
    await noSeriousViolations(page);
    await shot(page, 'update-preview-dark');
  }, 120_000);
});
