import {
  startTestServer,
  TEST_ADMIN_EMAIL,
  TEST_ADMIN_PASSWORD,
  type TestServer,
} from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { ARTIFACTS_DIR, newPage, noSeriousViolations, open, openSignedIn } from './web.ts';

/** Polls with room for a busy machine. */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });

/** What has the focus: its tag, its accessible label or text, and whether its focus ring shows. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    const labelled = element?.getAttribute('aria-labelledby');
    const label =
      (element && 'labels' in element ? (element as HTMLInputElement).labels?.[0]?.textContent : null) ??
      element?.getAttribute('aria-label') ??
      (labelled ? document.getElementById(labelled)?.textContent : null) ??
      element?.textContent ??
      '';
    const style = element ? getComputedStyle(element) : undefined;
    return {
      tag: element?.tagName.toLowerCase() ?? '',
      name: element?.getAttribute('name') ?? '',
      label: label.replace(/\s+/g, ' ').replace(/\*$/, '').trim(),
      ring: style ? style.outlineStyle !== 'none' || style.boxShadow !== 'none' : false,
    };
  });

/**
 * Presses Tab (Shift+Tab with `back`) until the focused element is the one
 * `wanted` describes; fails after `most` presses (a show page's whole cycle
 * is about 30), naming every element it passed.
 */
async function tabTo(
  page: Page,
  wanted: (f: Awaited<ReturnType<typeof focused>>) => boolean,
  most = 100,
  back = false,
) {
  const trail: string[] = [];
  for (let i = 0; i < most; i++) {
    const now = await focused(page);
    if (wanted(now)) return;
    trail.push(`${now.tag} ${now.label.slice(0, 24)}`);
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(
    `Tab did not reach the element on ${page.url()}: focus is on ${JSON.stringify(await focused(page))}, after ${trail.join(' › ')}`,
  );
}

/**
 * On the company list once its rows are in: `c` opens Create, whose focus is in its first field, Name, where
 * `name` is typed. Answers the dialog.
 */
async function createWithName(page: Page, name: string) {
  await page.locator('tbody tr').first().or(page.getByText('No records')).first().waitFor();
  await page.keyboard.press('c');
  const dialog = page.getByRole('dialog', { name: 'Create: Company' });
  await dialog.waitFor();
  await eventually(async () => (await focused(page)).label).toBe('Name');
  await page.keyboard.type(name);
  return dialog;
}

/**
 * Issue 13: a company created and edited by keyboard alone — signing in,
 * the create dialog (`c`), its fields by Tab, a picklist by arrows, the show
 * page's Edit, the edit form and its Save — with the focus visible on every
 * control it reaches by Tab.
 */
describe('a company by keyboard alone', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const read = async (id: number) =>
    (await (await server.fetch(`/api/v1/companies/${id}`)).json()) as Record<string, unknown>;

  it('signs in, creates a company with a picklist value, opens its edit form and saves a change', async () => {
    const page = await newPage(browser, { viewport: { width: 1440, height: 900 } });
    await open(page, `${server.url}/companies`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await tabTo(page, (f) => f.name === 'email');
    await page.keyboard.type(TEST_ADMIN_EMAIL);
    await page.keyboard.press('Tab');
    await page.keyboard.type(TEST_ADMIN_PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByTestId('user-menu').waitFor();
    await createWithName(page, 'Keyboard Heron');
    // Tab to City and type it; Tab to the stage picklist and pick its second option by arrows.
    await tabTo(page, (f) => f.label === 'City');
    await page.keyboard.type('Nantes');
    await tabTo(page, (f) => f.label === 'Stage');
    await page.keyboard.press('ArrowDown');
    await page.getByRole('listbox').waitFor();
    await page.keyboard.press('ArrowDown');
    // Enter picks the highlighted option; with none highlighted yet (a busy machine), Enter picks nothing (it once
    // submitted the dialog: CI created the company there, twice). So Enter waits for the highlight.
    await page.getByRole('listbox').locator('[data-combobox-selected]').waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('listbox').waitFor({ state: 'hidden' });
    // Tab to Create (the dialog's submit), Enter.
    await tabTo(page, (f) => f.tag === 'button' && f.label === 'Create');
    expect((await focused(page)).ring).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/companies\/\d+\/show$/);
    const id = Number(/\/companies\/(\d+)\/show$/.exec(new URL(page.url()).pathname)?.[1]);
    await page.getByRole('heading', { name: 'Keyboard Heron' }).waitFor();
    const created = await read(id);
    expect(created).toMatchObject({ name: 'Keyboard Heron', city: 'Nantes' });
    expect(created.stage).toEqual(expect.any(String));

    // Edit on the show page, by Tab and Enter; the edit form's Name first. The walk starts
    // once the page is whole (its lazily loaded activity card and its files panel in): CI
    // once walked 60 presses without meeting Edit, and the error now names each stop.
    await page.getByRole('region', { name: 'Activity' }).waitFor();
    await page.getByRole('button', { name: 'Upload' }).waitFor();
    await tabTo(page, (f) => f.label === 'Edit');
    expect((await focused(page)).ring).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/companies/${id}/edit`);
    // The walk starts once the form is there and the show page gone: for a moment after the address changes the
    // show page is still up, and a walk begun then goes round its controls (Edit, Delete, Add: Contact...) first.
    await page.getByRole('textbox', { name: 'City' }).waitFor();
    await page.getByRole('button', { name: 'Add: Contact' }).waitFor({ state: 'detached' });
    await tabTo(page, (f) => f.label === 'City');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Beaune');
    await tabTo(page, (f) => f.label === 'Employees');
    await page.keyboard.type('42');
    await tabTo(page, (f) => f.tag === 'button' && f.label === 'Save');
    expect((await focused(page)).ring).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS_DIR}keyboard-company-edit.png` });
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/companies/${id}/show`);
    await eventually(async () => {
      const saved = await read(id);
      return [saved.city, saved.employees, saved.version];
    }).toEqual(['Beaune', 42, 2]);
    await noSeriousViolations(page);
  });

  it('Enter in a picklist with its list open and nothing highlighted submits nothing; Enter on an option picks it', async () => {
    const page = await newPage(browser, { viewport: { width: 1440, height: 900 } });
    await openSignedIn(page, `${server.url}/companies`);
    const dialog = await createWithName(page, 'Enter Heron');
    // Typed text filters the stages; Mantine highlights none of the three left.
    const stage = dialog.getByRole('combobox', { name: 'Stage' });
    await stage.click();
    await stage.pressSequentially('Seri');
    const list = page.getByRole('listbox');
    await expect.poll(() => list.getByRole('option').count()).toBe(3);
    expect(await list.locator('[data-combobox-selected]').count()).toBe(0);
    await page.keyboard.press('Enter');
    // The dialog stays, its list open, and no company was created.
    await list.waitFor();
    expect(await dialog.isVisible()).toBe(true);
    const named = await server.fetch(`/api/v1/companies?filter[name][eq]=${encodeURIComponent('Enter Heron')}`);
    expect(((await named.json()) as { data: unknown[] }).data).toEqual([]);
    // An option highlighted, Enter picks it and the dialog still stays.
    await page.keyboard.press('ArrowDown');
    await list.locator('[data-combobox-selected]').waitFor();
    await page.keyboard.press('Enter');
    await list.waitFor({ state: 'hidden' });
    await expect.poll(() => stage.inputValue()).toBe('Series A');
    expect(await dialog.isVisible()).toBe(true);
    // A tag typed into Tags, then Enter: the tags field uses the key itself and adds the tag; the dialog stays.
    const tags = dialog.getByRole('combobox', { name: 'Tags' });
    await tags.click();
    await tags.pressSequentially('deeptech');
    await page.keyboard.press('Enter');
    await dialog.getByText('deeptech', { exact: true }).waitFor();
    expect(await tags.inputValue()).toBe('');
    expect(await dialog.isVisible()).toBe(true);
  });
});
