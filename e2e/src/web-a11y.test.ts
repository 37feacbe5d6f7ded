import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { createRecord, newPage, open, seriousViolations } from './web.ts';

const json = { 'content-type': 'application/json' };
const schemes = ['light', 'dark'] as const;
type Scheme = (typeof schemes)[number];

/** Waits until no transition or finite animation runs: axe must not judge a dialog half faded in. */
async function settled(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/** Axe's serious and critical violations of the page as it is, named by where they were seen. */
async function expectAccessible(page: Page, where: string) {
  await settled(page);
  // Soft: one run names every screen that fails, not only the first.
  expect.soft(JSON.stringify(await seriousViolations(page), null, 1), where).toEqual('[]');
}

describe('accessibility of the record screens (axe: no serious violations), light and dark', () => {
  let server: TestServer;
  let browser: Browser;
  let company: { id: number };
  let deal: { id: number };
  let contact: { id: number };

  const create = (resource: string, body: Record<string, unknown>) => createRecord(server, resource, body);

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startTestServer(process.env.WEB_DIR ? { WEB_DIR: process.env.WEB_DIR } : {}),
      launchChromium(),
    ]);
    company = await create('companies', {
      name: 'Acme Robotics',
      stage: 'Seed',
      city: 'Paris',
      website: 'https://acme.example',
    });
    await create('companies', { name: 'Globex', stage: 'Series A', city: 'Lyon' });
    deal = await create('deals', {
      name: 'Project Falcon',
      stage: 'Sourced',
      amount: { amount: 2500000, currency: 'EUR' },
      expectedCloseDate: '2025-03-31',
    });
    await create('deals', { name: 'Project Heron', stage: 'Due diligence' });
    contact = await create('contacts', { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@test.example' });
    await create('contacts', { firstName: 'Grace', lastName: 'Hopper' });
    const investor = await create('investors', { name: 'Pension Fund Lux' });
    await create('contactCompanies', { contactId: contact.id, companyId: company.id, role: 'Board member' });
    await create('dealCompanies', { dealId: deal.id, companyId: company.id });
    await create('dealInvestors', {
      dealId: deal.id,
      investorId: investor.id,
      commitment: { amount: 5000000, currency: 'USD' },
    });
    await create('notes', { entity: 'companies', recordId: company.id, body: '**Met the founders** in *Paris*' });
    await create('notes', {
      entity: 'companies',
      recordId: company.id,
      body: 'Second call: [deck](https://acme.example)',
    });
    const form = new FormData();
    form.append('file', new Blob(['the pitch deck'], { type: 'text/plain' }), 'deck.txt');
    const uploaded = await server.fetch(`/api/v1/files?entity=companies&recordId=${company.id}`, {
      method: 'POST',
      body: form,
    });
    if (uploaded.status !== 201) throw new Error(`Uploading answered ${uploaded.status}: ${await uploaded.text()}`);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A signed-in page in the device's colour scheme (the app's theme is System by default). */
  async function signedIn(scheme: Scheme, path: string) {
    const page = await newPage(browser, { colorScheme: scheme, storage: { token: server.token } });
    await open(page, `${server.url}${path}`);
    expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme);
    return page;
  }

  for (const scheme of schemes) {
    describe(scheme, () => {
      // Each list filtered and sorted by its address (both of its rows still shown), so chips and sort marks show.
      // One test per list: each opens eight states of its screen, each checked by axe.
      for (const [resource, title, view] of [
        ['companies', 'Companies', 'filter[stage][in]=Seed,Series A&sort=-name'],
        ['deals', 'Deals', 'filter[stage][in]=Sourced,Due diligence&sort=-name'],
        ['contacts', 'Contacts', 'filter[lastName][contains]=e&sort=-fullName'],
      ] as const) {
        it(`lists ${resource} with the filter form, columns, save view, bulk edit and delete open`, async () => {
          const page = await signedIn(scheme, `/${resource}`);
          await page.getByRole('heading', { name: title, exact: true }).waitFor();
          await page.locator('tbody tr').nth(1).waitFor();
          await expectAccessible(page, `${resource} list`);
          await open(page, `${server.url}/${resource}?${view}`);
          await page.getByTestId('filter-chip').waitFor();
          await page.locator('tbody tr').nth(1).waitFor();
          await expectAccessible(page, `${resource} list, filtered and sorted`);

          await page.getByRole('button', { name: 'Add filter' }).click();
          await page.getByRole('combobox', { name: 'Field' }).click();
          await page.getByRole('option').first().click();
          await page.getByRole('combobox', { name: 'Condition' }).waitFor();
          await expectAccessible(page, `${resource} list, filter form open`);
          await page.keyboard.press('Escape');

          await page.getByRole('button', { name: 'Columns' }).click();
          await page.getByRole('dialog', { name: 'Columns' }).getByRole('heading', { name: 'Hidden fields' }).waitFor();
          await expectAccessible(page, `${resource} list, Displayed fields and Hidden fields`);
          await page.getByRole('button', { name: 'Done' }).click();
          await page.getByRole('dialog', { name: 'Columns' }).waitFor({ state: 'detached' });

          await page.getByRole('button', { name: 'Views' }).click();
          await page.getByRole('menuitem', { name: 'Save as a new view…' }).click();
          const naming = page.getByRole('dialog', { name: 'Save as a new view…' });
          await naming.getByRole('textbox', { name: /Name of the view/ }).waitFor();
          await expectAccessible(page, `${resource} list, save view dialog`);
          await naming.getByRole('button', { name: 'Cancel' }).click();
          await naming.waitFor({ state: 'detached' });

          await page.getByRole('checkbox', { name: 'Select all loaded rows' }).check();
          await page.getByTestId('bulk-bar').waitFor();
          await expectAccessible(page, `${resource} list, rows selected`);

          await page.getByRole('button', { name: 'Edit a field' }).click();
          const bulk = page.getByRole('dialog', { name: /^Edit \d+ records$/ });
          await bulk.getByRole('combobox', { name: 'Field' }).click();
          await bulk.getByRole('option').first().click();
          await bulk.getByLabel('New value', { exact: true }).waitFor();
          await expectAccessible(page, `${resource} list, bulk edit`);
          await bulk.getByRole('button', { name: 'Cancel' }).click();
          await bulk.waitFor({ state: 'detached' });

          await page.getByRole('button', { name: 'Delete selected' }).click();
          const confirm = page.getByRole('dialog', { name: 'Delete records' });
          await confirm.waitFor();
          await expectAccessible(page, `${resource} list, delete confirmation`);
          await confirm.getByRole('button', { name: 'Cancel' }).click();
          await confirm.waitFor({ state: 'detached' });
          await page.context().close();
        });
      }

      it('shows a company with its relations, notes and files, the delete, add-link and note editing', async () => {
        const page = await signedIn(scheme, `/companies/${company.id}/show`);
        await page.getByRole('heading', { name: 'Acme Robotics' }).waitFor();
        await page.getByRole('region', { name: 'Contacts' }).getByRole('link', { name: 'Ada Lovelace' }).waitFor();
        await page.getByRole('region', { name: 'Deals' }).getByRole('link', { name: 'Project Falcon' }).waitFor();
        await page.getByTestId('note').nth(1).waitFor();
        await page.getByTestId('files-panel').getByRole('button', { name: 'deck.txt', exact: true }).waitFor();
        await expectAccessible(page, 'company show page');

        await page.getByRole('button', { name: 'Delete', exact: true }).click();
        const confirm = page.getByRole('dialog', { name: 'Delete Acme Robotics?' });
        await confirm.waitFor();
        await expectAccessible(page, 'company show page, delete confirmation');
        await confirm.getByRole('button', { name: 'Cancel' }).click();
        await confirm.waitFor({ state: 'detached' });

        await page.getByRole('region', { name: 'Contacts' }).getByRole('button', { name: 'Add: Contact' }).click();
        const adding = page.getByRole('dialog', { name: 'Add: Contact' });
        await adding.getByRole('textbox', { name: 'Role' }).waitFor();
        await expectAccessible(page, 'company show page, add-link dialog');
        await adding.getByRole('button', { name: 'Save' }).click();
        await adding.locator('[aria-invalid="true"]').first().waitFor();
        await expectAccessible(page, 'company show page, add-link dialog with an error');
        await adding.getByRole('button', { name: 'Cancel' }).click();
        await adding.waitFor({ state: 'detached' });

        const note = page.getByTestId('note').first();
        await note.getByRole('button', { name: 'Edit note' }).click();
        await note.getByRole('textbox', { name: 'Edit note' }).waitFor();
        await expectAccessible(page, 'company show page, a note being edited');
        await page.context().close();
      });

      it('shows a deal with its money, companies and investors', async () => {
        const page = await signedIn(scheme, `/deals/${deal.id}/show`);
        await page.getByRole('region', { name: 'Investors' }).locator('tbody').getByText('$5,000,000').waitFor();
        await page.getByRole('region', { name: 'Companies' }).getByRole('link', { name: 'Acme Robotics' }).waitFor();
        await expectAccessible(page, 'deal show page');
        await page.context().close();
      });

      it('edits a record: the form, its field errors, and the stale-save dialog', async () => {
        const page = await signedIn(scheme, `/companies/${company.id}/edit`);
        const name = page.getByRole('textbox', { name: 'Name', exact: true });
        await name.waitFor();
        await expectAccessible(page, 'company edit page');
        await name.fill('');
        await page.getByRole('textbox', { name: 'Website' }).fill('not a web address');
        await page.getByRole('button', { name: 'Save' }).click();
        await page.getByText('Expected a web address starting with http:// or https://').waitFor();
        await expectAccessible(page, 'company edit page with field errors');

        await open(page, `${server.url}/contacts/${contact.id}/edit`);
        const city = page.getByRole('textbox', { name: 'City' });
        await city.waitFor();
        const current = (await (await server.fetch(`/api/v1/contacts/${contact.id}`)).json()) as { version: number };
        const theirs = await server.fetch(`/api/v1/contacts/${contact.id}`, {
          method: 'PATCH',
          headers: { ...json, 'if-match': String(current.version) },
          body: JSON.stringify({ city: `Their city ${scheme}` }),
        });
        expect(theirs.status).toBe(200);
        await city.fill(`My city ${scheme}`);
        await page.getByRole('button', { name: 'Save' }).click();
        const conflict = page.getByRole('dialog', { name: 'Someone else changed this record' });
        await conflict.getByTestId('conflict-changes').getByRole('row').filter({ hasText: 'City' }).waitFor();
        await expectAccessible(page, 'contact edit page, stale-save dialog');
        await page.context().close();
      });

      it('creates in the modal: empty, then with field errors', async () => {
        const page = await signedIn(scheme, '/contacts?create=1');
        const dialog = page.getByRole('dialog', { name: 'Create: Contact' });
        await dialog.getByRole('textbox', { name: 'First name' }).waitFor();
        await expectAccessible(page, 'contact create modal');
        await dialog.getByRole('textbox', { name: 'Email' }).fill('not an address');
        await dialog.getByRole('button', { name: 'Create', exact: true }).click();
        await dialog.locator('[aria-invalid="true"]').first().waitFor();
        await expectAccessible(page, 'contact create modal with field errors');

        await open(page, `${server.url}/deals?create=1`);
        const deals = page.getByRole('dialog', { name: 'Create: Deal' });
        await deals.getByRole('button', { name: 'Create', exact: true }).click();
        await deals.locator('[aria-invalid="true"]').first().waitFor();
        await expectAccessible(page, 'deal create modal with field errors');
        await page.context().close();
      });
    });
  }
});
