import { readFile } from 'node:fs/promises';
import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { activeUser, createRecord, newPage, noSeriousViolations, openSignedIn, picker } from './web.ts';

describe('custom data: fields defined in the app travel the record screens', () => {
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

  it('defines a picklist in a group through the modal, edits it in a modal, and uses it on a company', async () => {
    await create('customFieldGroups', { entity: 'companies', name: 'Sourcing', position: 1 });
    const checkSize = await create('custom-data', { entity: 'companies', name: 'Check size', type: 'money' });

    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/custom-data`);
    await page.getByRole('heading', { name: 'Custom fields' }).waitFor();

    // Create in the modal; a picklist without choices is refused with the server's message under Choices.
    await page.getByRole('link', { name: 'Create' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create: Custom field' });
    await dialog.waitFor();
    await picker(dialog, 'Record type').click();
    await page.getByRole('option', { name: 'Companies', exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Deal source');
    await picker(dialog, 'Type').click();
    await page.getByRole('option', { name: 'Picklist', exact: true }).click();
    await picker(dialog, 'Group').fill('Sour');
    await page.getByRole('option', { name: 'Sourcing' }).click();
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.getByText('A picklist needs at least one choice').waitFor();
    const choices = picker(dialog, 'Choices');
    await choices.fill('Referral');
    await choices.press('Enter');
    await choices.fill('Conference');
    await choices.press('Enter');
    await noSeriousViolations(page);
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();

    // Its page at /custom-data/{id}/show, with the key records carry it under.
    await page.waitForURL(/\/custom-data\/\d+\/show$/);
    const id = Number(/\/custom-data\/(\d+)\/show$/.exec(new URL(page.url()).pathname)?.[1]);
    const key = `cf${id}`;
    await page.getByRole('heading', { name: 'Deal source' }).waitFor();
    await expect.poll(() => page.locator('[data-field="key"]').textContent()).toBe(key);
    await expect.poll(() => page.locator('[data-field="type"]').textContent()).toBe('Picklist');
    await noSeriousViolations(page);

    // Edit in a modal over the list (the spec's route table).
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`**/custom-data?edit=${id}`);
    const editing = page.getByRole('dialog', { name: 'Editing: Custom field' });
    await editing.waitFor();
    await editing.getByRole('textbox', { name: 'Name', exact: true }).fill('Source');
    await noSeriousViolations(page);
    await editing.getByRole('button', { name: 'Save' }).click();
    await editing.waitFor({ state: 'detached' });
    await page.getByTestId('list-grid').getByText('Source', { exact: true }).waitFor();

    // A company created in its modal has both custom fields; the picklist sits in its group on the show page.
    await page.goto(`${server.url}/companies?create=1`);
    const creating = page.getByRole('dialog', { name: 'Create: Company' });
    await creating.waitFor();
    await creating.getByRole('textbox', { name: 'Name', exact: true }).fill('Custom Fields Inc');
    await picker(creating, 'Source').click();
    await page.getByRole('option', { name: 'Referral', exact: true }).click();
    await creating.getByRole('textbox', { name: 'Check size', exact: true }).fill('750000');
    await picker(creating, 'Check size currency').fill('USD');
    await page.getByRole('option', { name: /^USD / }).click();
    await creating.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/companies\/\d+\/show$/);
    const companyId = Number(/\/companies\/(\d+)\/show$/.exec(new URL(page.url()).pathname)?.[1]);
    const sourcing = page.getByRole('region', { name: 'Sourcing' });
    await expect.poll(() => sourcing.locator(`[data-field="${key}"]`).textContent()).toBe('Referral');
    await expect.poll(() => page.locator(`[data-field="${String(checkSize.key)}"]`).textContent()).toBe('$750,000');
    const stored = (await (await server.fetch(`/api/v1/companies/${companyId}`)).json()) as Record<string, unknown>;
    expect(stored).toMatchObject({ [key]: 'Referral', [String(checkSize.key)]: { amount: 750000, currency: 'USD' } });

    // The list filters by it, and shows it as a column.
    await page.goto(`${server.url}/companies?filter[${key}][eq]=Referral`);
    const grid = page.getByTestId('list-grid');
    await grid.getByText('Custom Fields Inc').waitFor();
    await page.getByRole('button', { name: 'Columns' }).click();
    const columns = page.getByRole('dialog', { name: 'Columns' });
    await columns.getByRole('button', { name: 'Show Source' }).click();
    await columns.getByRole('button', { name: 'Done' }).click();
    await grid.getByRole('columnheader', { name: 'Source' }).waitFor();
    await grid.getByRole('gridcell', { name: 'Referral' }).waitFor();

    // Export writes that list as it is shown: its columns (the custom one too) and its filter.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('menuitem', { name: 'CSV (comma-separated)' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^companies-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readFile(await download.path(), 'utf8'))
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toMatch(/^ID,Name,.*,Source$/);
    expect(lines.slice(1)).toEqual([expect.stringMatching(/^\d+,Custom Fields Inc,.*,Referral$/)]);
  });

  it('shows a Viewer the custom fields but no Create, Edit or Delete', async () => {
    const viewer = await activeUser(server, 'Viewer');
    const field = await create('custom-data', { entity: 'deals', name: 'Next step', type: 'text' });
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/custom-data`, viewer.email, viewer.password);
    await page.getByTestId('list-grid').getByText('Next step').waitFor();
    expect(await page.getByRole('link', { name: 'Create' }).count()).toBe(0);
    await page.goto(`${server.url}/custom-data/${String(field.id)}/show`);
    await page.getByRole('heading', { name: 'Next step' }).waitFor();
    expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
  });
});
