import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { ARTIFACTS_DIR, newPage, noSeriousViolations, open, openSignedIn } from './web.ts';

const json = { 'content-type': 'application/json' };

/**
 * A record's activity timeline (issue 16): a field changed shows in the
 * timeline as its label, old → new; Restore sets it back (the page shows the
 * old value, the timeline a "restored" entry); notes show; older entries on
 * "Load More..."; light and dark with nothing serious for axe.
 */
describe('record history on the show page', () => {
  let server: TestServer;
  let browser: Browser;
  let companyId: number;

  async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const answer = await server.fetch(`/api/v1/${path}`, {
      method,
      headers: { ...json, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${await answer.text()}`);
    return (await answer.json()) as { id: number; version: number };
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    let company = await send('POST', 'companies', { name: 'Northwind Timeline', city: 'Lyon', employees: 1 });
    companyId = company.id;
    // Older entries: enough that the first page does not hold them all.
    for (let employees = 2; employees <= 11; employees++) {
      company = await send('PATCH', `companies/${companyId}`, { employees }, { 'if-match': String(company.version) });
    }
    await send('POST', 'notes', { entity: 'companies', recordId: companyId, body: 'Met the founders in Lyon' });
    await send('PATCH', `companies/${companyId}`, { city: 'Paris' }, { 'if-match': String(company.version) });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const timeline = (page: Page) => page.getByRole('region', { name: 'Activity' });
  const entryTexts = (page: Page) =>
    timeline(page)
      .getByTestId('history-entry')
      .evaluateAll((entries) => entries.map((entry) => entry.textContent?.replace(/\s+/g, ' ').trim() ?? ''));

  it('shows a changed field, restores its old value, and loads older entries', async () => {
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/companies/${companyId}/show`);
    await timeline(page).getByTestId('history-entry').first().waitFor();
    const [latest, note] = await entryTexts(page);
    expect(latest).toMatch(/^Admin changed.*City:\s*Lyon\s*→\s*Paris/);
    expect(note).toMatch(/^Admin added a note.*Met the founders in Lyon/);
    expect(await timeline(page).getByTestId('history-entry').count()).toBe(10);

    await timeline(page).getByRole('button', { name: 'Restore City to its earlier value' }).first().click();
    await page.getByText('City restored').waitFor();
    await expect.poll(async () => (await entryTexts(page))[0]).toMatch(/^Admin restored.*City:\s*Paris\s*→\s*Lyon/);
    // The record's details show the value restored.
    await page.getByRole('region', { name: 'Details' }).getByText('Lyon').waitFor();

    await timeline(page).getByRole('button', { name: 'Load More...' }).click();
    await expect.poll(async () => (await entryTexts(page)).length).toBe(14);
    expect((await entryTexts(page)).at(-1)).toMatch(/^Admin created this record/);
    expect(await timeline(page).getByRole('button', { name: 'Load More...' }).count()).toBe(0);
    await page.context().close();
  });

  it('restores a deleted record from its page; the administrator sets the retention period on the users screen', async () => {
    const doomed = await send('POST', 'companies', { name: 'Doomed Timeline Ltd' });
    const removed = await server.fetch(`/api/v1/companies/${doomed.id}`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/companies/${doomed.id}/show`);
    await page.getByText('This record was deleted').waitFor();
    await page.getByRole('button', { name: 'Restore this record' }).click();
    await page.getByText('Record restored').waitFor();
    await page.getByRole('heading', { name: 'Doomed Timeline Ltd' }).waitFor();
    await expect.poll(async () => (await entryTexts(page))[0] ?? '').toMatch(/^Admin restored/);

    await open(page, `${server.url}/users`);
    const days = page.getByRole('textbox', { name: 'Days a deleted record can be restored' });
    await expect.poll(() => days.inputValue()).toBe('30');
    await days.fill('45');
    await page.getByRole('region', { name: 'Deleted records' }).getByRole('button', { name: 'Save' }).click();
    await page.getByText('Retention period saved').waitFor();
    // Saved: nothing left to save until the period changes again.
    await expect
      .poll(() =>
        page.getByRole('region', { name: 'Deleted records' }).getByRole('button', { name: 'Save' }).isDisabled(),
      )
      .toBe(true);
    const settings = await server.fetch('/api/v1/history/settings');
    expect(await settings.json()).toEqual({ retentionDays: 45 });
    await page
      .getByRole('region', { name: 'Deleted records' })
      .screenshot({ path: `${ARTIFACTS_DIR}history-retention.png` });
    await page.context().close();
  });

  it('is accessible in light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await newPage(browser, { colorScheme });
      await openSignedIn(page, `${server.url}/companies/${companyId}/show`);
      await timeline(page).getByTestId('history-entry').nth(3).waitFor();
      await page.waitForLoadState('networkidle');
      await timeline(page).screenshot({ path: `${ARTIFACTS_DIR}history-timeline-${colorScheme}.png` });
      await noSeriousViolations(page);
      await page.context().close();
    }
  });
});
