import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { ARTIFACTS_DIR, activeUser, newPage, noSeriousViolations, openSignedIn, splashGone } from './web.ts';

/** Polls with room for a busy machine (the default gives up after one second). */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });
const total = (page: Page) => page.getByTestId('list-total');
const firstRow = (page: Page) => page.locator('tbody tr').first();
const notFound = (page: Page) => page.getByRole('alert').filter({ hasText: 'This saved view was not found' });

/**
 * Issue 13, item 2: a saved view's address travels. Saved in one browser, it
 * opens in another as the same user; a colleague sees it only once it is
 * shared, and cannot change it; once deleted its address says so.
 */
describe('saved views on the server', () => {
  let server: TestServer;
  let browser: Browser;
  let alice: { email: string; password: string };
  let bob: { email: string; password: string };
  const pages: Page[] = [];

  async function openAs(user: { email: string; password: string }, path: string): Promise<Page> {
    const page = await newPage(browser);
    pages.push(page);
    await openSignedIn(page, `${server.url}${path}`, user.email, user.password);
    return page;
  }
  async function viewsMenu(page: Page) {
    await page.getByRole('button', { name: 'Views' }).click();
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    const companies = [
      { name: 'Genome Works', industry: 'Biotech', employees: 300 },
      { name: 'Helix Bio', industry: 'Biotech', employees: 900 },
      { name: 'Cell Forge', industry: 'Biotech', employees: 50 },
      { name: 'Robotics Giant', industry: 'Industrials', employees: 5000 },
      { name: 'Ledger Labs', industry: 'Fintech', employees: 1200 },
    ];
    for (const company of companies) {
      const answer = await server.fetch('/api/v1/companies', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(company),
      });
      if (answer.status !== 201) throw new Error(`Creating a company answered ${answer.status}`);
    }
    alice = await activeUser(server, 'Editor');
    bob = await activeUser(server, 'Viewer');
  });
  afterAll(async () => {
    await Promise.all(pages.splice(0).map((page) => page.context().close()));
    await browser?.close();
    await server?.close();
  });

  it('opens a view saved in one browser in another, shares it with a colleague, and says when it is gone', async () => {
    // Alice, in her first browser: the biotech companies, biggest first, saved as "Biggest bio".
    const first = await openAs(alice, '/companies?filter[industry][eq]=Biotech&sort=-employees');
    try {
      await eventually(() => total(first).textContent()).toBe('3 records');
      await viewsMenu(first);
      await first.getByRole('menuitem', { name: 'Save as a new view…' }).click();
      await first.getByRole('textbox', { name: /Name of the view/ }).fill('Biggest bio');
      await first.getByRole('button', { name: 'Save' }).click();
      await first.getByRole('heading', { name: 'Companies – Biggest bio' }).waitFor();
      expect(new URL(first.url()).pathname).toBe('/companies/views/biggest-bio');

      // Alice in a second, fresh browser (nothing in its storage) at the bare address: the view applies.
      const second = await openAs(alice, '/companies/views/biggest-bio');
      await second.getByRole('heading', { name: 'Companies – Biggest bio' }).waitFor();
      await eventually(() => total(second).textContent()).toBe('3 records');
      await eventually(() => firstRow(second).textContent()).toContain('Helix Bio');
      expect(await second.getByTestId('filter-chip').count()).toBe(1);
      await viewsMenu(second);
      await second.getByRole('menuitem', { name: 'Biggest bio' }).waitFor();
      await second.keyboard.press('Escape');

      // Bob, a colleague, at the same address: her view is private, so not found, said plainly.
      const colleague = await openAs(bob, '/companies/views/biggest-bio');
      await notFound(colleague).waitFor();
      expect(await colleague.locator('tbody tr').count()).toBe(0);
      await noSeriousViolations(colleague);

      // Alice shares it: Bob now sees it, read-only (a copy can be saved, not a change).
      await viewsMenu(first);
      await first.getByRole('menuitem', { name: 'Share with the team' }).click();
      await first.getByText('View “Biggest bio” is shared with the team').waitFor();
      await colleague.reload();
      await splashGone(colleague);
      await colleague.getByRole('heading', { name: 'Companies – Biggest bio' }).waitFor();
      await eventually(() => total(colleague).textContent()).toBe('3 records');
      await eventually(() => firstRow(colleague).textContent()).toContain('Helix Bio');
      await viewsMenu(colleague);
      await colleague.getByRole('menuitem', { name: 'Save a copy of this view…' }).waitFor();
      expect(await colleague.getByRole('menuitem', { name: 'Delete view' }).count()).toBe(0);
      expect(await colleague.getByRole('menuitem', { name: 'Rename view' }).count()).toBe(0);
      expect(await colleague.getByRole('menuitem', { name: 'Share with the team' }).count()).toBe(0);
      await colleague.keyboard.press('Escape');
      await colleague.getByRole('menuitem', { name: 'Save a copy of this view…' }).waitFor({ state: 'detached' });
      await noSeriousViolations(colleague);

      // Alice deletes it: its address now says the view is gone, with the way back to the list.
      await viewsMenu(first);
      await first.getByRole('menuitem', { name: 'Delete view' }).click();
      await first.getByRole('dialog', { name: 'Delete view' }).getByRole('button', { name: 'Delete' }).click();
      await first.waitForURL((url) => url.pathname === '/companies');
      for (const page of [second, colleague]) {
        await page.reload();
        await splashGone(page);
        await notFound(page).waitFor();
      }
      await noSeriousViolations(second);
      await colleague.getByRole('link', { name: 'Back to all Companies' }).click();
      await colleague.waitForURL((url) => url.pathname === '/companies');
      await eventually(() => total(colleague).textContent()).toBe('5 records');
    } catch (error) {
      await Promise.all(
        pages.map((page, n) => page.screenshot({ path: `${ARTIFACTS_DIR}saved-views-${n}.png`, fullPage: true })),
      );
      throw error;
    }
  });

  it('uploads the views a browser saved before they lived on the server, once, under their address', async () => {
    const layout = {
      pathId: 'local-1',
      customPath: '/companies/views/old-fintech',
      name: 'Old fintech',
      filters: [{ field: 'industry', op: 'eq', value: 'Fintech' }],
      sort: '',
      q: '',
    };
    // What redux-persist kept of the layouts slice in this browser before this change.
    const persisted = {
      layouts: JSON.stringify({ '/companies': [layout] }),
      defaultShows: '{}',
      defaultFilters: '{}',
      _persist: JSON.stringify({ version: -1, rehydrated: true }),
    };
    const page = await newPage(browser, { storage: { 'persist:layouts': JSON.stringify(persisted) } });
    pages.push(page);
    await openSignedIn(page, `${server.url}/companies`, alice.email, alice.password);
    await viewsMenu(page);
    await page.getByRole('menuitem', { name: 'Old fintech' }).waitFor();
    await page.keyboard.press('Escape');

    // Another browser of the same user opens its address: the server has it now.
    const elsewhere = await openAs(alice, '/companies/views/old-fintech');
    await elsewhere.getByRole('heading', { name: 'Companies – Old fintech' }).waitFor();
    await eventually(() => total(elsewhere).textContent()).toBe('1 record');
    await eventually(() => firstRow(elsewhere).textContent()).toContain('Ledger Labs');
    // Uploaded once: the first browser, read again, lists it once.
    await page.reload();
    await splashGone(page);
    await viewsMenu(page);
    await page.getByRole('menuitem', { name: 'Old fintech' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Old fintech' }).count()).toBe(1);
  });
});
