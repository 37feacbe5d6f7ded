import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { activeUser, newPage, openSignedIn, seriousViolations, splashGone } from './web.ts';

const COMPANIES = 105;
const stages = ['Seed', 'Series A', 'Series B'];
/** Companies 001 to 105; every third is at Seed; one is called Zeta Robotics. */
const companyName = (n: number) => (n === 42 ? 'Zeta Robotics' : `Company ${String(n).padStart(3, '0')}`);

async function create(server: TestServer, resource: string, body: Record<string, unknown>) {
  const answer = await server.fetch(`/api/v1/${resource}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (answer.status !== 201)
    throw new Error(`Creating in ${resource} answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as { id: number };
}

/** Polls with room for a busy machine (the default gives up after one second). */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });

const total = (page: Page) => page.getByTestId('list-total');
const firstRow = (page: Page) => page.locator('tbody tr').first();
/** The column headers' labels, without the sort marks. */
const headers = async (page: Page) =>
  (await page.locator('thead th').allTextContents())
    .map((text) => text.replace(/[▲▼\d]/g, '').trim())
    .filter((text) => text !== '' && text !== 'Actions');

/** Opens the Add filter form and adds one condition. */
async function addFilter(page: Page, field: string, pick: (page: Page) => Promise<void>) {
  await page.getByRole('button', { name: 'Add filter' }).click();
  await page.getByRole('combobox', { name: 'Field' }).click();
  await page.getByRole('option', { name: field, exact: true }).click();
  await pick(page);
  await page.getByRole('button', { name: 'Apply' }).click();
}

/**
 * Each test opens a page of its own (a new browser context: no saved layout)
 * and changes only rows it made, so that the tests hold in any order.
 */
describe('the list screen', () => {
  let server: TestServer;
  let browser: Browser;
  /** Pages a test opened, closed after it. */
  const pages: Page[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    for (let start = 1; start <= COMPANIES; start += 15) {
      await Promise.all(
        Array.from({ length: Math.min(15, COMPANIES - start + 1) }, (_, i) => start + i).map((n) =>
          create(server, 'companies', { name: companyName(n), stage: stages[n % 3], city: n % 2 ? 'Paris' : 'Lyon' }),
        ),
      );
    }
    const amounts = [500_000, 2_000_000, 8_000_000, 30_000_000];
    for (const [i, amount] of amounts.entries()) {
      await create(server, 'deals', {
        name: `Deal ${i + 1}`,
        stage: 'Sourced',
        amount: { amount, currency: 'USD' },
      });
    }
  });
  afterEach(async () => {
    await Promise.all(pages.splice(0).map((page) => page.context().close()));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A new page signed in as the administrator at `path`. */
  async function openPage(path: string): Promise<Page> {
    const page = await newPage(browser);
    pages.push(page);
    await openSignedIn(page, `${server.url}${path}`);
    return page;
  }

  it('shows the rows and the total, then Load More... appends the next page by cursor', async () => {
    const page = await openPage('/companies');
    await eventually(() => total(page).textContent()).toBe(`${COMPANIES} records`);
    await eventually(() => firstRow(page).textContent()).toContain('Company 001');
    expect(await headers(page)).toEqual(expect.arrayContaining(['Name', 'Industry', 'Stage', 'City']));
    const grid = page.getByTestId('list-grid');
    await page.getByRole('button', { name: 'Load More...' }).click();
    await page.getByText(`All ${COMPANIES} loaded`).waitFor();
    // The grid keeps only the rows in view in the page: scrolling to the end shows the last ones.
    expect(await page.locator('tbody tr').count()).toBeLessThan(60);
    await grid.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    await page.getByRole('gridcell', { name: 'Company 105', exact: true }).waitFor();
  });

  it('sorts on the server by a header: ascending, descending, and a second key with shift', async () => {
    const page = await openPage('/companies');
    const name = page.getByRole('columnheader', { name: 'Name' });
    await name.getByRole('button').click();
    await eventually(() => name.getAttribute('aria-sort')).toBe('ascending');
    await name.getByRole('button').click();
    await eventually(() => name.getAttribute('aria-sort')).toBe('descending');
    await eventually(() => firstRow(page).textContent()).toContain('Zeta Robotics');
    expect(new URL(page.url()).searchParams.get('sort')).toBe('-name');
    await page
      .getByRole('columnheader', { name: 'City' })
      .getByRole('button')
      .click({ modifiers: ['Shift'] });
    await eventually(() => new URL(page.url()).searchParams.get('sort')).toBe('-name,city');
    // A plain click on a descending key turns sorting off: the entity's default order again.
    await name.getByRole('button').click();
    await eventually(() => new URL(page.url()).searchParams.get('sort')).toBeNull();
  });

  it('searches as the user types', async () => {
    const page = await openPage('/companies');
    await page.getByRole('searchbox', { name: 'Search' }).fill('zeta');
    await eventually(() => total(page).textContent()).toBe('1 record');
    expect(await firstRow(page).textContent()).toContain('Zeta Robotics');
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await eventually(() => total(page).textContent()).toBe(`${COMPANIES} records`);
  });

  it('filters a picklist by "is one of", and the filter survives a reload', async () => {
    const page = await openPage('/companies');
    await addFilter(page, 'Stage', async () => {
      await page.getByRole('combobox', { name: 'Value' }).click();
      await page.getByRole('option', { name: 'Seed', exact: true }).click();
      // Leaving the picklist closes its options, which cover the form.
      await page.keyboard.press('Tab');
    });
    const seeds = Array.from({ length: COMPANIES }, (_, i) => i + 1).filter((n) => n % 3 === 0).length;
    await eventually(() => total(page).textContent()).toBe(`${seeds} records`);
    expect(await page.getByTestId('filter-chip').allTextContents()).toEqual(['Stage is one of Seed']);
    await page.reload();
    await splashGone(page);
    await eventually(() => total(page).textContent()).toBe(`${seeds} records`);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await eventually(() => total(page).textContent()).toBe(`${COMPANIES} records`);
  });

  it('hides and shows columns in Displayed fields and Hidden fields, kept over a reload', async () => {
    const page = await openPage('/companies');
    await page.getByRole('button', { name: 'Columns' }).click();
    const dialog = page.getByRole('dialog', { name: 'Columns' });
    await dialog.getByRole('heading', { name: 'Displayed fields' }).waitFor();
    await dialog.getByRole('heading', { name: 'Hidden fields' }).waitFor();
    await dialog.getByRole('button', { name: 'Hide City' }).click();
    await dialog.getByRole('button', { name: 'Show Revenue' }).click();
    await dialog.getByRole('button', { name: 'Move Revenue up' }).click();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await eventually(() => headers(page)).not.toContain('City');
    const shown = await headers(page);
    expect(shown.indexOf('Revenue')).toBe(shown.indexOf('Owner') - 1);
    await page.reload();
    await splashGone(page);
    await eventually(() => headers(page)).toContain('Revenue');
    expect(await headers(page)).not.toContain('City');
    // Dragging a field from Hidden fields onto Displayed fields shows it too.
    await page.getByRole('button', { name: 'Columns' }).click();
    const city = dialog.getByText('City', { exact: true });
    await city.scrollIntoViewIfNeeded();
    await city.hover();
    await page.mouse.down();
    await dialog.getByText('Name', { exact: true }).hover();
    await dialog.getByText('Name', { exact: true }).hover({ position: { x: 5, y: 5 } });
    await page.mouse.up();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await eventually(async () => (await headers(page)).slice(0, 2)).toEqual(['City', 'Name']);
  });

  it('saves the columns, filters and sort as a view whose address restores it for someone else', async () => {
    const page = await openPage('/companies');
    await page.getByRole('button', { name: 'Columns' }).click();
    const columns = page.getByRole('dialog', { name: 'Columns' });
    await columns.getByRole('button', { name: 'Hide Industry' }).click();
    await columns.getByRole('button', { name: 'Done' }).click();
    await eventually(() => headers(page)).not.toContain('Industry');
    const shown = await headers(page);
    await addFilter(page, 'City', async () => {
      await page.getByLabel('Value', { exact: true }).fill('Lyon');
    });
    await page.getByRole('columnheader', { name: 'Name' }).getByRole('button').click();
    await page.getByRole('columnheader', { name: 'Name' }).getByRole('button').click();
    await page.getByRole('button', { name: 'Views' }).click();
    await page.getByRole('menuitem', { name: 'Save as a new view…' }).click();
    await page.getByRole('textbox', { name: /Name of the view/ }).fill('Lyon companies');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Companies – Lyon companies' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/companies/views/lyon-companies');
    const lyon = Math.floor(COMPANIES / 2);
    await eventually(() => total(page).textContent()).toBe(`${lyon} records`);
    const address = page.url();

    // Someone without the saved layout opens the address: same filter, sort and columns.
    const other = await openPage(new URL(address).pathname + new URL(address).search);
    await eventually(() => total(other).textContent()).toBe(`${lyon} records`);
    expect(await other.getByTestId('filter-chip').allTextContents()).toEqual(['City contains Lyon']);
    await eventually(() => other.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    expect(await headers(other)).toEqual(shown);

    // The root path is as it was; the view is in the Views menu, and can be renamed and deleted.
    await page.goto(`${server.url}/companies`);
    await splashGone(page);
    await page.getByRole('button', { name: 'Views' }).click();
    await page.getByRole('menuitem', { name: 'Lyon companies' }).click();
    await page.getByRole('heading', { name: 'Companies – Lyon companies' }).waitFor();
    await page.getByRole('button', { name: 'Views' }).click();
    await page.getByRole('menuitem', { name: 'Rename view' }).click();
    await page.getByRole('textbox', { name: /Name of the view/ }).fill('Lyon');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Companies – Lyon' }).waitFor();
    await page.getByRole('button', { name: 'Views' }).click();
    await page.getByRole('menuitem', { name: 'Delete view' }).click();
    await page.getByRole('dialog', { name: 'Delete view' }).getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL((url) => url.pathname === '/companies');
    await page.getByRole('button', { name: 'Views' }).click();
    await page.getByRole('menuitem', { name: 'No saved views yet' }).waitFor();
    await page.keyboard.press('Escape');
    // The filter added on the root path before saving is still its default.
    expect(await page.getByTestId('filter-chip').allTextContents()).toEqual(['City contains Lyon']);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await eventually(() => total(page).textContent()).toBe(`${COMPANIES} records`);
  });

  it('deletes a row after a confirmation, and several selected rows at once', async () => {
    // Rows of its own, so that the other tests find the companies they count.
    await create(server, 'companies', { name: 'Removable 050' });
    for (let n = 60; n < 70; n++) await create(server, 'companies', { name: `Removable 0${n}` });
    const page = await openPage('/companies');
    await page.getByRole('searchbox', { name: 'Search' }).fill('Removable 050');
    await eventually(() => total(page).textContent()).toBe('1 record');
    await page.getByRole('button', { name: 'Delete Removable 050' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete records' });
    await dialog.getByText('Delete Removable 050?').waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Removable 050 deleted').waitFor();
    expect(
      (await server.fetch('/api/v1/companies?count=exact&filter[name][eq]=Removable 050').then((r) => r.json())).total,
    ).toBe(0);

    await page.getByRole('searchbox', { name: 'Search' }).fill('Removable 06');
    await eventually(() => total(page).textContent()).toBe('10 records');
    await page.getByRole('checkbox', { name: 'Select Removable 061' }).check();
    await page.getByRole('checkbox', { name: 'Select Removable 062' }).check();
    await page.getByTestId('bulk-bar').getByText('2 selected').waitFor();
    await page.getByRole('button', { name: 'Edit a field' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit 2 records' });
    await edit.getByRole('combobox', { name: 'Field' }).click();
    await edit.getByRole('option', { name: 'City', exact: true }).click();
    await edit.getByLabel('New value', { exact: true }).fill('Nantes');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('2 records updated').waitFor();
    const nantes = await server.fetch('/api/v1/companies?filter[city][eq]=Nantes&select=name').then((r) => r.json());
    expect(nantes.data.map((row: { name: string }) => row.name).sort()).toEqual(['Removable 061', 'Removable 062']);

    await page.getByRole('checkbox', { name: 'Select all loaded rows' }).check();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByRole('dialog', { name: 'Delete records' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('10 records deleted').waitFor();
    await eventually(() => total(page).textContent()).toBe('0 records');
    expect(
      (await server.fetch('/api/v1/companies?count=exact&filter[name][startsWith]=Removable').then((r) => r.json()))
        .total,
    ).toBe(0);
  });

  it('has no serious accessibility violations', async () => {
    const page = await openPage('/companies');
    await eventually(() => total(page).textContent()).toBe(`${COMPANIES} records`);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('lists deals too, with a money range filter', async () => {
    const page = await openPage('/deals');
    await eventually(() => total(page).textContent()).toBe('4 records');
    await eventually(() => headers(page)).toEqual(expect.arrayContaining(['Name', 'Stage', 'Amount']));
    await addFilter(page, 'Amount', async () => {
      await page.getByLabel('From', { exact: true }).fill('1000000');
      await page.getByLabel('To', { exact: true }).fill('10000000');
    });
    await eventually(() => total(page).textContent()).toBe('2 records');
    expect(await page.getByTestId('filter-chip').allTextContents()).toEqual([
      'Amount is at least 1000000',
      'Amount is at most 10000000',
    ]);
    await page.getByRole('columnheader', { name: 'Amount' }).getByRole('button').click();
    await page.getByRole('columnheader', { name: 'Amount' }).getByRole('button').click();
    await eventually(() => firstRow(page).textContent()).toContain('Deal 3');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows a Viewer no Create, Delete or bulk actions, in French at /fr/deals', async () => {
    const viewer = await activeUser(server, 'Viewer');
    const other = await newPage(browser);
    pages.push(other);
    await openSignedIn(other, `${server.url}/deals`, viewer.email, viewer.password);
    await other.goto(`${server.url}/fr/deals`);
    await splashGone(other);
    await eventually(() => total(other).textContent()).toBe('4 fiches');
    await other.getByRole('link', { name: 'Afficher Deal 1' }).waitFor();
    expect(await other.getByRole('button', { name: /^Supprimer/ }).count()).toBe(0);
    expect(await other.getByRole('link', { name: /^Modifier/ }).count()).toBe(0);
    expect(await other.getByRole('checkbox').count()).toBe(0);
    expect(await other.getByRole('link', { name: 'Créer' }).count()).toBe(0);
  });
});
