import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { createRecord, newPage, noSeriousViolations, openSignedIn, picker } from './web.ts';

/** French groups digits with a narrow no-break space; people read a space. */
const spaces = (text: string | null) => (text ?? '').replace(/[\u202f\u00a0]/g, ' ');

/**
 * Issue 13, items 7 and 11, as a new user meets them: file sizes with their
 * unit, multiples with two decimals and an x, money typed in the language's
 * way, a refused number saying what the field takes, currencies with their
 * names, and a commitment in its deal's currency.
 */
describe('formats and messages of a working day', () => {
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

  async function stored(resource: string, id: number, field: string): Promise<unknown> {
    return (
      (await (await server.fetch(`/api/v1/${resource}/${id}?select=${field}`)).json()) as Record<string, unknown>
    )[field];
  }

  it('shows a file size with its unit, in English and French', async () => {
    const company = await create('companies', { name: 'Sizewell Analytics' });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(3_000_000).fill(97)], { type: 'text/plain' }), 'data-room.txt');
    const uploaded = await server.fetch(`/api/v1/files?entity=companies&recordId=${company.id}`, {
      method: 'POST',
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/companies/${company.id}/show`);
    const files = page.getByTestId('files-panel');
    await files.getByRole('button', { name: 'data-room.txt', exact: true }).waitFor();
    await files.getByText('3 MB', { exact: true }).waitFor();
    await page.goto(`${server.url}/fr/companies/${company.id}/show`);
    await page
      .getByTestId('files-panel')
      .getByText(/^3\sMo$/)
      .waitFor();
    await page.context().close();
  });

  it('shows multiples with two decimals and an x', async () => {
    const fund = await create('funds', { name: 'Multiplier Fund I', currency: 'USD' });
    await create('fundPerformances', {
      fundId: fund.id,
      asOfDate: '2025-06-30',
      currency: 'USD',
      paidIn: 1000,
      distributed: 2000,
      nav: 2200,
    });
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/fund-performances?filter[fundId][eq]=${fund.id}`);
    const grid = page.getByTestId('list-grid');
    // TVPI (2000 + 2200) / 1000 and DPI 2000 / 1000.
    await grid.getByText('4.20x', { exact: true }).waitFor();
    await grid.getByText('2.00x', { exact: true }).waitFor();
    await page.goto(`${server.url}/fr/fund-performances?filter[fundId][eq]=${fund.id}`);
    await page.getByTestId('list-grid').getByText('4,20x', { exact: true }).waitFor();
    await page.context().close();
  });

  /** Opens a list's create modal (signing in first, unless `signedIn`) and gives the dialog. */
  async function createModal(page: Page, path: string, signedIn = false) {
    if (signedIn) await page.goto(`${server.url}${path}?create=1`);
    else await openSignedIn(page, `${server.url}${path}?create=1`);
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    return dialog;
  }

  it('takes money typed in the language’s way, in English and French', async () => {
    const page = await newPage(browser);
    let dialog = await createModal(page, '/deals');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Project Comma');
    const amount = dialog.getByRole('textbox', { name: 'Amount', exact: true });
    await amount.pressSequentially('1234567.89');
    await expect.poll(() => amount.inputValue()).toBe('1,234,567.89');
    await picker(dialog, 'Amount currency').fill('USD');
    await page.getByRole('option', { name: /^USD/ }).click();
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/deals\/\d+\/show$/);
    const english = Number(/\/deals\/(\d+)\/show$/.exec(page.url())?.[1]);
    expect(await stored('deals', english, 'amount')).toEqual({ amount: 1234567.89, currency: 'USD' });

    dialog = await createModal(page, '/fr/deals', true);
    await dialog.getByRole('textbox', { name: 'Nom', exact: true }).fill('Projet Virgule');
    const montant = dialog.getByRole('textbox', { name: 'Montant', exact: true });
    await montant.pressSequentially('1234567,89');
    await expect.poll(async () => spaces(await montant.inputValue())).toBe('1 234 567,89');
    await picker(dialog, 'Devise de Montant').fill('EUR');
    await page.getByRole('option', { name: /^EUR/ }).click();
    await dialog.getByRole('button', { name: 'Créer', exact: true }).click();
    await page.waitForURL(/\/deals\/\d+\/show$/);
    const french = Number(/\/deals\/(\d+)\/show$/.exec(page.url())?.[1]);
    expect(await stored('deals', french, 'amount')).toEqual({ amount: 1234567.89, currency: 'EUR' });
    await page.context().close();
  });

  it('says what a number field takes, in English and French', async () => {
    const page = await newPage(browser);
    let dialog = await createModal(page, '/companies');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Negative Staffing');
    await dialog.getByRole('textbox', { name: 'Employees', exact: true }).fill('-5');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.getByText('Employees must be a whole number of 0 or more', { exact: true }).waitFor();
    await noSeriousViolations(page);

    dialog = await createModal(page, '/fr/companies', true);
    await dialog.getByRole('textbox', { name: 'Nom', exact: true }).fill('Effectif négatif');
    await dialog.getByRole('textbox', { name: 'Salariés', exact: true }).fill('-5');
    await dialog.getByRole('button', { name: 'Créer', exact: true }).click();
    await dialog.getByText('Salariés doit être un nombre entier supérieur ou égal à 0', { exact: true }).waitFor();
    await page.context().close();
  });

  it('names currencies in pickers, the common ones first', async () => {
    const page = await newPage(browser);
    const dialog = await createModal(page, '/funds');
    await picker(dialog, 'Currency').click();
    const first = page.getByRole('option').first();
    await first.waitFor();
    expect(await first.textContent()).toBe('USD · US Dollar');
    await picker(dialog, 'Currency').fill('swiss');
    await page.getByRole('option', { name: 'CHF · Swiss Franc', exact: true }).waitFor();
    await noSeriousViolations(page);
    await page.context().close();
  });

  it('gives a new commitment its deal’s currency until the user picks one', async () => {
    await create('deals', { name: 'Project Gannet', amount: { amount: 5_000_000, currency: 'EUR' } });
    const investor = await create('investors', { name: 'Gannet Capital' });
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/investors/${investor.id}/show`);
    await page.getByRole('button', { name: 'Add: Deal' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add: Deal' });
    await picker(dialog, 'Deal').fill('Gannet');
    await page.getByRole('option', { name: 'Project Gannet' }).click();
    const currency = picker(dialog, 'Commitment currency');
    await expect.poll(() => currency.inputValue()).toBe('EUR · Euro');
    // A currency the user picks stays.
    await currency.fill('GBP');
    await page.getByRole('option', { name: /^GBP/ }).click();
    await expect.poll(() => currency.inputValue()).toMatch(/^GBP/);
    await dialog.getByRole('textbox', { name: 'Commitment', exact: true }).fill('250000');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Linked.').waitFor();
    const links = (await (
      await server.fetch(`/api/v1/dealInvestors?filter[investorId][eq]=${investor.id}&select=commitment`)
    ).json()) as { data: { commitment: unknown }[] };
    expect(links.data[0]?.commitment).toEqual({ amount: 250000, currency: 'GBP' });
    await page.context().close();
  });
});
