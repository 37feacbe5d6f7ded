import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { activeUser, newPage, noSeriousViolations, openSignedIn } from './web.ts';

const json = { 'content-type': 'application/json' };

/**
 * The open Views menu of a list passes axe: empty (no saved view yet), and
 * with the user's own views, a colleague's shared view and the actions on the
 * open view. Its children are menu items, groups and separators only
 * (aria-required-children).
 */
describe('the Views menu, open, is accessible (axe)', () => {
  let server: TestServer;
  let browser: Browser;
  const pages: Page[] = [];

  async function openAs(user: { email: string; password: string } | undefined, path: string): Promise<Page> {
    const page = await newPage(browser);
    pages.push(page);
    await openSignedIn(page, `${server.url}${path}`, user?.email, user?.password);
    return page;
  }
  async function openMenu(page: Page) {
    await page.getByRole('button', { name: 'Views' }).click();
    await page.getByRole('menu').waitFor();
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    const answer = await server.fetch('/api/v1/companies', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Genome Works', industry: 'Biotech' }),
    });
    if (answer.status !== 201) throw new Error(`Creating a company answered ${answer.status}`);
  });
  afterAll(async () => {
    await Promise.all(pages.splice(0).map((page) => page.context().close()));
    await browser?.close();
    await server?.close();
  });

  it('with no saved view yet', async () => {
    const page = await openAs(undefined, '/companies');
    await openMenu(page);
    await page.getByRole('menuitem', { name: 'Save as a new view…' }).waitFor();
    await noSeriousViolations(page);
  });

  it("with one's own views, a colleague's shared view and the open view's actions", async () => {
    const colleague = await activeUser(server, 'Editor');
    const theirs = await openAs(colleague, '/companies?filter[industry][eq]=Biotech');
    await openMenu(theirs);
    await theirs.getByRole('menuitem', { name: 'Save as a new view…' }).click();
    await theirs.getByRole('textbox', { name: /Name of the view/ }).fill('Their bio');
    await theirs.getByRole('button', { name: 'Save' }).click();
    await theirs.getByRole('heading', { name: 'Companies – Their bio' }).waitFor();
    await openMenu(theirs);
    await theirs.getByRole('menuitem', { name: 'Share with the team' }).click();
    await expect.poll(() => theirs.getByRole('menu').count(), { timeout: 15_000 }).toBe(0);

    const mine = await openAs(undefined, '/companies?sort=name');
    await openMenu(mine);
    await mine.getByRole('menuitem', { name: 'Save as a new view…' }).click();
    await mine.getByRole('textbox', { name: /Name of the view/ }).fill('By name');
    await mine.getByRole('button', { name: 'Save' }).click();
    await mine.getByRole('heading', { name: 'Companies – By name' }).waitFor();
    await openMenu(mine);
    await mine.getByRole('menuitem', { name: /Their bio/ }).waitFor();
    await mine.getByRole('menuitem', { name: 'Rename view' }).waitFor();
    await noSeriousViolations(mine);
  });
});
