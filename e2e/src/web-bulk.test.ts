import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { newPage, openSignedIn } from './web.ts';

interface Company {
  id: number;
  name: string;
  city: string | null;
  version: number;
}

async function call<T>(server: TestServer, path: string, init: RequestInit = {}, expected = 200): Promise<T> {
  const answer = await server.fetch(`/api/v1${path}`, {
    ...init,
    headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
  });
  if (answer.status !== expected) throw new Error(`${path} answered ${answer.status}: ${await answer.text()}`);
  return (answer.status === 204 ? undefined : await answer.json()) as T;
}

const createCompany = (server: TestServer, name: string) =>
  call<Company>(server, '/companies', { method: 'POST', body: JSON.stringify({ name, city: 'Paris' }) }, 201);

/** Companies whose name starts with `prefix`, as the API has them now. */
async function companiesNamed(server: TestServer, prefix: string): Promise<Pick<Company, 'name' | 'city'>[]> {
  const answer = await call<{ data: Company[] }>(
    server,
    `/companies?select=name,city&filter[name][startsWith]=${encodeURIComponent(prefix)}&sort=name`,
  );
  return answer.data.map(({ name, city }) => ({ name, city }));
}

/** Polls with room for a busy machine. */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });

/** The rows the grid shows, by the names their checkboxes select, in name order (a search ranks ties as it likes). */
const shownRows = (page: Page) =>
  page
    .locator('tbody')
    .getByRole('checkbox')
    .evaluateAll((boxes) => boxes.map((box) => box.getAttribute('aria-label') ?? '').sort());

/**
 * Narrows the list to the rows named `prefix…` and selects the three of them.
 * Waits for the rows themselves, not a count: until the search is sent the
 * list shows the rows it had, "3 records" too when its read met two of the
 * three rows just created, and a selection made there goes with that list.
 */
async function selectThree(page: Page, prefix: string, names: readonly string[]) {
  await page.getByRole('searchbox', { name: 'Search' }).fill(prefix);
  await eventually(() => shownRows(page)).toEqual(names.map((name) => `Select ${name}`).sort());
  expect(await page.getByTestId('list-total').textContent()).toBe('3 records');
  for (const name of names) await page.getByRole('checkbox', { name: `Select ${name}` }).check();
  await page.getByTestId('bulk-bar').getByText('3 selected').waitFor();
}

describe('bulk actions where some rows fail', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    // A row no search below matches: the list shows it until a search has narrowed the list.
    await createCompany(server, 'Unrelated Holdings');
    page = await newPage(browser);
    await openSignedIn(page, `${server.url}/companies`);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('bulk edit saves the rows it can and names the one changed by someone else since, with the reason', async () => {
    const names = ['Bulkedit Alpha', 'Bulkedit Beta', 'Bulkedit Gamma'];
    const [, beta] = await Promise.all(names.map((name) => createCompany(server, name)));
    if (!beta) throw new Error('Bulkedit Beta was not created');
    await selectThree(page, 'Bulkedit', names);

    // Someone else changes Beta after the list showed it: the version the list holds is stale now.
    await call(server, `/companies/${beta.id}`, {
      method: 'PATCH',
      headers: { 'if-match': String(beta.version) },
      body: JSON.stringify({ city: 'Lyon' }),
    });

    await page.getByRole('button', { name: 'Edit a field' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit 3 records' });
    // The dialog opens on its first field, not on its Close button.
    await expect
      .poll(() => edit.getByRole('combobox', { name: 'Field' }).evaluate((field) => field === document.activeElement))
      .toBe(true);
    await edit.getByRole('combobox', { name: 'Field' }).click();
    await edit.getByRole('option', { name: 'City', exact: true }).click();
    await edit.getByLabel('New value', { exact: true }).fill('Nantes');
    await edit.getByRole('button', { name: 'Save' }).click();

    const failures = page.getByTestId('bulk-failures');
    await failures.waitFor();
    expect(await failures.getByRole('listitem').allTextContents()).toEqual([
      `Bulkedit Beta: Company ${beta.id} was changed by someone else (now version 2); reload it and apply your change again`,
    ]);
    expect(await failures.textContent()).toContain('Done for 2 of 3');
    expect(await companiesNamed(server, 'Bulkedit')).toEqual([
      { name: 'Bulkedit Alpha', city: 'Nantes' },
      { name: 'Bulkedit Beta', city: 'Lyon' },
      { name: 'Bulkedit Gamma', city: 'Nantes' },
    ]);
    // The list reads the rows again: the two saved show their new city, the stale one the other user's.
    await eventually(() => page.locator('tbody tr').filter({ hasText: 'Nantes' }).count()).toBe(2);
    await eventually(() => page.locator('tbody tr').filter({ hasText: 'Lyon' }).count()).toBe(1);
    await failures.getByRole('button', { name: 'Close' }).click();
    await failures.waitFor({ state: 'detached' });
  });

  it('bulk delete deletes the rows it can and names the one already gone, with the reason', async () => {
    const names = ['Bulkdelete Alpha', 'Bulkdelete Beta', 'Bulkdelete Gamma'];
    const [alpha] = await Promise.all(names.map((name) => createCompany(server, name)));
    if (!alpha) throw new Error('Bulkdelete Alpha was not created');
    await selectThree(page, 'Bulkdelete', names);

    // Someone else deletes Alpha after the list showed it.
    await call(server, `/companies/${alpha.id}`, { method: 'DELETE' }, 204);

    await page.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByRole('dialog', { name: 'Delete records' }).getByRole('button', { name: 'Delete' }).click();

    const failures = page.getByTestId('bulk-failures');
    await failures.waitFor();
    expect(await failures.getByRole('listitem').allTextContents()).toEqual([
      `Bulkdelete Alpha: Company ${alpha.id} was not found`,
    ]);
    expect(await failures.textContent()).toContain('Done for 2 of 3');
    expect(await companiesNamed(server, 'Bulkdelete')).toEqual([]);
    await eventually(() => page.getByTestId('list-total').textContent()).toBe('0 records');
  });
});
