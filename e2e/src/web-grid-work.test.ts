import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { newPage, noSeriousViolations, openSignedIn } from './web.ts';

const json = { 'content-type': 'application/json' };

/** Polls with room for a busy machine (the default gives up after one second). */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });

/**
 * The list as a place to work (issue 13): a row's preview beside the grid,
 * values edited in their cells with the version check, and the keyboard.
 * Each test works on companies of its own, found by search.
 */
describe('the list grid: preview, inline editing, keyboard', () => {
  let server: TestServer;
  let browser: Browser;
  const pages: Page[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
  });
  afterEach(async () => {
    await Promise.all(pages.splice(0).map((page) => page.context().close()));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const answer = await server.fetch(`/api/v1${path}`, {
      method,
      headers: { ...json, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${await answer.text()}`);
    return (await answer.json()) as Record<string, unknown> & { id: number; version: number };
  }
  const company = (body: Record<string, unknown>) => api('POST', '/companies', body);
  const read = (id: number) => api('GET', `/companies/${id}`);

  async function openPage(path: string): Promise<Page> {
    const page = await newPage(browser, { viewport: { width: 1440, height: 900 } });
    pages.push(page);
    await openSignedIn(page, `${server.url}${path}`);
    return page;
  }

  /** The grid's row of a record, by its name. */
  const rowOf = (page: Page, name: string) => page.locator('tbody tr', { hasText: name });
  /** A row's cell under the column headed `header`. */
  /** Where the column headed `header` is, counted from 0. */
  async function columnAt(page: Page, header: string) {
    const headers = (await page.locator('thead th').allTextContents()).map((text) => text.replace(/[▲▼\d]/g, ''));
    const index = headers.findIndex((text) => text.trim() === header);
    if (index < 0) throw new Error(`No column ${header} in ${headers.join(', ')}`);
    return index;
  }
  async function cellOf(page: Page, name: string, header: string) {
    // The headers are read once, so wait until the grid shows the row (the search may still be loading).
    await rowOf(page, name).first().waitFor();
    return rowOf(page, name)
      .locator('td')
      .nth(await columnAt(page, header));
  }
  const preview = (page: Page) => page.getByRole('complementary', { name: /^Preview: / });
  const editor = (page: Page) => page.locator('[data-cell-editor]');
  /** What the focused element is: its tag, and the text of the row it is in. */
  const focused = (page: Page) =>
    page.evaluate(() => {
      const element = document.activeElement;
      return {
        tag: element?.tagName.toLowerCase(),
        type: (element as HTMLInputElement | null)?.type,
        row: element?.closest('tr')?.textContent ?? '',
        text: element?.textContent ?? '',
      };
    });

  it('a click on a row previews it beside the list: fields, Edit, notes; the address keeps it; Escape closes it', async () => {
    const { id } = await company({ name: 'Preview Orchard', city: 'Avignon', stage: 'Seed' });
    await api('POST', '/notes', { entity: 'companies', recordId: id, body: 'Met the **founders** in Avignon' });
    const page = await openPage('/companies?q=Preview%20Orchard');
    await (await cellOf(page, 'Preview Orchard', 'City')).click();

    const panel = preview(page);
    await panel.getByRole('heading', { name: 'Preview Orchard' }).waitFor();
    expect(new URL(page.url()).searchParams.get('preview')).toBe(String(id));
    // The show page's fields, an Edit action, the notes.
    await panel.locator('dd[data-field="city"]', { hasText: 'Avignon' }).waitFor();
    await panel.locator('dd[data-field="stage"]', { hasText: 'Seed' }).waitFor();
    expect(await panel.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe(`/companies/${id}/edit`);
    await panel.getByRole('region', { name: 'Notes' }).getByText('founders').waitFor();
    // The list is still there, usable beside it, the previewed row marked.
    expect(await rowOf(page, 'Preview Orchard').getAttribute('data-previewed')).toBe('true');
    await noSeriousViolations(page);

    // The address carries it: a reload shows it again.
    await page.reload();
    await preview(page).getByRole('heading', { name: 'Preview Orchard' }).waitFor();

    // Escape closes it; the focus is back on the row.
    await preview(page).getByRole('button', { name: 'Close the preview' }).focus();
    await page.keyboard.press('Escape');
    await preview(page).waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('preview')).toBeNull();
    await eventually(async () => (await focused(page)).row).toContain('Preview Orchard');
    expect((await focused(page)).tag).toBe('td');

    // Clicking the name still opens the record's page.
    await rowOf(page, 'Preview Orchard').getByRole('link', { name: 'Preview Orchard', exact: true }).click();
    await page.waitForURL(`**/companies/${id}/show`);
  });

  it('edits a value in its cell: saved with the version, there after a reload', async () => {
    const { id, version } = await company({ name: 'Inline Quarry', city: 'Nantes' });
    const page = await openPage('/companies?q=Inline%20Quarry');
    const city = await cellOf(page, 'Inline Quarry', 'City');
    await city.dblclick();
    const input = editor(page).getByRole('textbox', { name: 'City' });
    await expect.poll(() => input.evaluate((element) => element === document.activeElement)).toBe(true);
    await input.fill('Rennes');
    await input.press('Enter');
    await editor(page).waitFor({ state: 'detached' });
    await eventually(() => city.textContent()).toBe('Rennes');
    const saved = await read(id);
    expect(saved.city).toBe('Rennes');
    expect(saved.version).toBe(version + 1);
    // The focus is back on the cell.
    expect(await focused(page)).toMatchObject({ tag: 'td', text: 'Rennes' });

    await page.reload();
    await eventually(async () => (await cellOf(page, 'Inline Quarry', 'City')).textContent()).toBe('Rennes');

    // Escape cancels: nothing is sent.
    const again = await cellOf(page, 'Inline Quarry', 'City');
    await again.dblclick();
    await editor(page).getByRole('textbox', { name: 'City' }).fill('Brest');
    await page.keyboard.press('Escape');
    await editor(page).waitFor({ state: 'detached' });
    expect(await again.textContent()).toBe('Rennes');
    expect((await read(id)).version).toBe(version + 1);
  });

  it('says when the row changed since the list was read, keeps what was typed, and saves over it once reloaded', async () => {
    const { id, version } = await company({ name: 'Stale Meadow', city: 'Lille' });
    const page = await openPage('/companies?q=Stale%20Meadow');
    const city = await cellOf(page, 'Stale Meadow', 'City');
    await eventually(() => city.textContent()).toBe('Lille');
    // Someone else changes the record after the list was read.
    await api('PATCH', `/companies/${id}`, { city: 'Roubaix' }, { 'if-match': String(version) });

    await city.dblclick();
    const input = editor(page).getByRole('textbox', { name: 'City' });
    await input.fill('Tourcoing');
    await input.press('Enter');
    const alert = editor(page).getByRole('alert');
    await alert.getByText('Changed by someone else since the list was loaded. Your value is kept.').waitFor();
    expect(await input.inputValue()).toBe('Tourcoing');
    expect((await read(id)).city).toBe('Roubaix');
    await noSeriousViolations(page);

    await alert.getByRole('button', { name: 'Reload their version' }).click();
    await editor(page).getByText('Their version is loaded. Enter saves your value over it.').waitFor();
    expect(await input.inputValue()).toBe('Tourcoing');
    await input.press('Enter');
    await editor(page).waitFor({ state: 'detached' });
    const saved = await read(id);
    expect(saved.city).toBe('Tourcoing');
    expect(saved.version).toBe(version + 2);
  });

  it('shows a refused value (400) on the cell, and axe finds nothing serious with a cell in edit', async () => {
    const { id } = await company({ name: 'Refused Vale', website: 'https://vale.example' });
    const page = await openPage('/companies?q=Refused%20Vale&shows=name,website,city');
    const website = await cellOf(page, 'Refused Vale', 'Website');
    await website.dblclick();
    const input = editor(page).getByRole('textbox', { name: 'Website' });
    await noSeriousViolations(page);
    await input.fill('not a web address');
    await input.press('Enter');
    await editor(page).getByText('Expected a web address starting with http:// or https://').waitFor();
    expect(await input.inputValue()).toBe('not a web address');
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect((await read(id)).website).toBe('https://vale.example');
    await noSeriousViolations(page);
  });

  it('works by keyboard alone: c creates, / searches, arrows move, Enter and F2 edit, Enter previews', async () => {
    await company({ name: 'Keyboard Neighbour', city: 'Dijon' });
    const page = await openPage('/companies');
    await page.locator('tbody tr').first().waitFor();

    // c opens Create; its first field has the focus; Enter creates.
    await page.keyboard.press('c');
    const dialog = page.getByRole('dialog', { name: 'Create: Company' });
    await dialog.waitFor();
    await eventually(async () => (await focused(page)).tag).toBe('input');
    await page.keyboard.type('Keyboard Kestrel');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/companies\/\d+\/show$/);
    const id = Number(/\/companies\/(\d+)\/show$/.exec(new URL(page.url()).pathname)?.[1]);
    await page.getByRole('heading', { name: 'Keyboard Kestrel' }).waitFor();

    // Back on the list, / puts the focus in its search; c typed there is text, not Create.
    await page.goto(`${server.url}/companies`);
    await page.locator('tbody tr').first().waitFor();
    await page.keyboard.press('/');
    expect(await focused(page)).toMatchObject({ tag: 'input', type: 'search' });
    await page.keyboard.type('Keyboard c');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Keyboard');
    await eventually(() => page.getByTestId('list-total').textContent()).toBe('2 records');

    // Tab reaches the grid at one cell: the first row's name.
    for (let i = 0; i < 40 && (await focused(page)).tag !== 'td'; i++) await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'td', text: 'Keyboard Kestrel' });
    expect(await page.locator('td[tabindex="0"]').count()).toBe(1);
    // The focused cell is outlined.
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
    expect(outline).toBe('solid');

    // F2 on the name edits it.
    await page.keyboard.press('F2');
    await editor(page).getByRole('textbox', { name: 'Name' }).waitFor();
    await page.keyboard.type('Keyboard Kestrel Ltd');
    await page.keyboard.press('Enter');
    await editor(page).waitFor({ state: 'detached' });
    await eventually(async () => (await read(id)).name).toBe('Keyboard Kestrel Ltd');

    // Arrows to its city (right along the row), Enter edits it.
    const cityAt = await columnAt(page, 'City');
    const nameAt = await columnAt(page, 'Name');
    for (let i = nameAt; i < cityAt; i++) await page.keyboard.press('ArrowRight');
    await eventually(async () => (await focused(page)).row).toContain('Keyboard Kestrel Ltd');
    await page.keyboard.press('Enter');
    const city = editor(page).getByRole('textbox', { name: 'City' });
    await city.waitFor();
    await page.keyboard.type('Beaune');
    await page.keyboard.press('Enter');
    await editor(page).waitFor({ state: 'detached' });
    await eventually(async () => (await read(id)).city).toBe('Beaune');
    await eventually(async () => (await focused(page)).text).toBe('Beaune');

    // Down to the next row, Home to its first cell, End to its last; Enter on the name previews the row.
    await page.keyboard.press('ArrowDown');
    await eventually(async () => (await focused(page)).row).toContain('Keyboard Neighbour');
    await page.keyboard.press('ArrowUp');
    await eventually(async () => (await focused(page)).row).toContain('Keyboard Kestrel Ltd');
    for (let i = nameAt; i < cityAt; i++) await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    await preview(page).getByRole('heading', { name: 'Keyboard Kestrel Ltd' }).waitFor();
    await preview(page).locator('dd[data-field="city"]', { hasText: 'Beaune' }).waitFor();
    // The focus stays in the grid: arrows take the preview along to the next row.
    await page.keyboard.press('ArrowDown');
    await preview(page).getByRole('heading', { name: 'Keyboard Neighbour' }).waitFor();
    await page.keyboard.press('Escape');
    await preview(page).waitFor({ state: 'detached' });
    expect((await focused(page)).row).toContain('Keyboard Neighbour');
  });
});
