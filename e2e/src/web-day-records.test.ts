import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { createRecord, newPage, noSeriousViolations, openSignedIn, picker } from './web.ts';

/** The id in `/fund-performances/7/show`. */
const idInPath = (page: Page) => Number(/\/(\d+)\/(show|edit)$/.exec(new URL(page.url()).pathname)?.[1]);

/** Waits until the focus is inside the open dialog (where Mantine's focus trap puts it when it opens). */
const focusInDialog = (page: Page) =>
  page.waitForFunction(() => document.activeElement?.closest('[role="dialog"]') !== null);

/** What has the focus: its tag and accessible label. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLInputElement | null;
    return { tag: element?.tagName, label: element?.labels?.[0]?.textContent ?? element?.getAttribute('aria-label') };
  });

describe('a working day with records (issue 13): fund performance, delete and back, focus, help, markdown', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const create = (resource: string, body: Record<string, unknown>) => createRecord(server, resource, body);

  it("fund performance: created and edited in the app, named by fund and quarter, its figures on the fund's page", async () => {
    const fund = await create('funds', { name: 'Harbour Fund II', currency: 'EUR' });
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/fund-performances`);

    // Create opens the modal (it set ?create=1 and opened nothing).
    await page.getByRole('link', { name: 'Create', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Create: Fund performance' });
    await dialog.waitFor();
    await picker(dialog, 'Fund').fill('Harbour');
    await page.getByRole('option', { name: 'Harbour Fund II' }).click();
    await dialog.getByLabel(/^As of/).fill('2025-12-31');
    await picker(dialog, 'Currency').fill('EUR');
    await page.getByRole('option', { name: /^EUR/ }).first().click();
    await dialog.getByRole('textbox', { name: 'Paid-in', exact: true }).fill('10000000');
    await dialog.getByRole('textbox', { name: 'Distributed', exact: true }).fill('4000000');
    await dialog.getByRole('textbox', { name: 'NAV', exact: true }).fill('9000000');
    await noSeriousViolations(page);
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/fund-performances\/\d+\/show$/);
    const id = idInPath(page);
    // Named by its fund and quarter, not by a bare date.
    await page.getByRole('heading', { name: 'Harbour Fund II · 2025-12-31' }).waitFor();

    // Edited on its page.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`**/fund-performances/${id}/edit`);
    await page.getByRole('textbox', { name: 'NAV', exact: true }).fill('12000000');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`**/fund-performances/${id}/show`);
    const stored = (await (await server.fetch(`/api/v1/fundPerformances/${id}`)).json()) as Record<string, unknown>;
    expect(stored).toMatchObject({ fundId: fund.id, asOfDate: '2025-12-31', currency: 'EUR' });
    expect(Number(stored.nav)).toBe(12_000_000);

    // The fund's page lists its quarters with their figures under headings, each a link to the record.
    await page.goto(`${server.url}/funds/${fund.id}/show`);
    const panel = page.getByRole('region', { name: 'Fund performance' });
    for (const heading of ['As of', 'Paid-in', 'Distributed', 'NAV', 'DPI', 'TVPI']) {
      await panel.getByRole('columnheader', { name: heading, exact: true }).waitFor();
    }
    const row = panel.getByRole('row').filter({ has: page.getByRole('link', { name: 'Dec 31, 2025' }) });
    await row.getByText(/12,000,000/).waitFor();
    await row.getByText(/10,000,000/).waitFor();
    await noSeriousViolations(page);
    await row.getByRole('link', { name: 'Dec 31, 2025' }).click();
    await page.waitForURL(`**/fund-performances/${id}/show`);
    await page.context().close();
  });

  it('after a delete, Back does not show the deleted record, and its address says it is gone', async () => {
    const company = await create('companies', { name: 'Doomed Holdings' });
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/companies`);
    await page.goto(`${server.url}/companies/${company.id}/show`);
    await page.getByRole('heading', { name: 'Doomed Holdings' }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/companies$/);

    // Back leaves for where the user was before the record's page, not for the record from the cache.
    await page.goBack();
    await page.waitForURL(/\/companies$/);
    expect(await page.getByRole('heading', { name: 'Doomed Holdings' }).count()).toBe(0);

    // The record's own address: a "not found" page without the record's actions.
    await page.goto(`${server.url}/companies/${company.id}/show`);
    await page.getByRole('alert').filter({ hasText: 'This record cannot be shown' }).waitFor();
    await page.getByRole('link', { name: 'Back to Companies' }).waitFor();
    for (const name of ['Edit', 'Delete', 'Upload']) {
      expect(await page.getByRole('main').getByRole('button', { name }).count(), name).toBe(0);
      expect(await page.getByRole('main').getByRole('link', { name, exact: true }).count(), name).toBe(0);
    }
    expect(await page.getByRole('textbox').count()).toBe(0);
    await noSeriousViolations(page);
    await page.context().close();
  });

  it('a record dialog opens with its first field focused: a name with spaces is typed whole', async () => {
    const definition = await create('custom-data', { entity: 'deals', name: 'Focus check', type: 'text' });
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/companies`);
    await page.getByRole('link', { name: 'Create', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Create: Company' });
    await dialog.waitFor();
    await focusInDialog(page);
    expect(await focused(page)).toMatchObject({ tag: 'INPUT' });
    // Space on a focused Close button closed the dialog and lost what was typed.
    await page.keyboard.type('Acme Space Robotics');
    expect(await dialog.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).toBe('Acme Space Robotics');

    // An edit dialog too (custom data is edited over its list).
    await page.goto(`${server.url}/custom-data?edit=${definition.id}`);
    const edit = page.getByRole('dialog');
    await edit.getByRole('button', { name: 'Save' }).waitFor();
    await focusInDialog(page);
    await page.waitForFunction(() => ['INPUT', 'TEXTAREA'].includes(document.activeElement?.tagName ?? ''));
    await page.context().close();
  });

  it('recent notes in markdown, each naming its record and linking to it', async () => {
    const deal = await create('deals', { name: 'Project Heron' });
    await create('notes', { entity: 'deals', recordId: deal.id, body: '**Urgent**: call the founder' });
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/`);

    const notes = page.getByTestId('recent-notes');
    await notes.locator('strong', { hasText: 'Urgent' }).waitFor();
    expect(await notes.getByText('**Urgent**').count()).toBe(0);
    await noSeriousViolations(page);
    await notes.getByRole('link', { name: 'Deal: Project Heron' }).click();
    await page.waitForURL(`**/deals/${deal.id}/show`);
    await page.context().close();
  });

  it("a description in markdown on the record's page", async () => {
    const company = await create('companies', { name: 'Markdown Labs', description: '**Bold** bet on _tooling_' });
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/companies/${company.id}/show`);
    await page.locator('main strong', { hasText: 'Bold' }).waitFor();
    expect(await page.locator('main em', { hasText: 'tooling' }).count()).toBe(1);
    // Case-sensitive: the note box's help says "Markdown: **bold**, ...".
    expect(await page.getByText(/\*\*Bold\*\*/).count()).toBe(0);
    await page.context().close();
  });

  it("help text under the inputs: a custom field's description", async () => {
    await create('custom-data', {
      entity: 'companies',
      name: 'Sourcing channel',
      type: 'text',
      description: 'Where we first heard of them',
    });
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/companies?create=1`);
    const dialog = page.getByRole('dialog', { name: 'Create: Company' });
    const input = dialog.getByRole('textbox', { name: 'Sourcing channel', exact: true });
    await dialog.getByText('Where we first heard of them').waitFor();
    // Mantine's description sits under the label and describes the input to screen readers.
    expect(await input.getAttribute('aria-describedby')).toBeTruthy();
    await page.context().close();
  });
});
