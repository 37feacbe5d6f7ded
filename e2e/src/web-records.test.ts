import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { activeUser, createRecord, newPage, noSeriousViolations, openSignedIn, picker } from './web.ts';

const json = { 'content-type': 'application/json' };

/** The id in `/companies/7/show`. */
const idInPath = (page: Page) => Number(/\/(\d+)\/(show|edit)$/.exec(new URL(page.url()).pathname)?.[1]);

describe('record pages: show, edit, create modal, links, notes, files', () => {
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

  /** Opens the list's create modal, fills the named text fields, creates, and lands on the show page. */
  async function createThroughModal(page: Page, list: string, title: string, fields: Record<string, string>) {
    await page.goto(`${server.url}${list}?create=1`);
    const dialog = page.getByRole('dialog', { name: title });
    await dialog.waitFor();
    for (const [label, value] of Object.entries(fields)) {
      await dialog.getByRole('textbox', { name: label, exact: true }).fill(value);
    }
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/\d+\/show$/);
    return idInPath(page);
  }

  it('companies: create in the modal, show, edit, a note in markdown, a file up and down, delete', async () => {
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/companies`);

    // The modal checks like the server does: a required name.
    await page.goto(`${server.url}/companies?create=1`);
    const dialog = page.getByRole('dialog', { name: 'Create: Company' });
    await dialog.waitFor();
    await noSeriousViolations(page);
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.getByText('Required').first().waitFor();
    await dialog.getByRole('textbox', { name: 'Website' }).fill('not a web address');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Acme Robotics');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.getByText('Expected a web address starting with http:// or https://').waitFor();
    await dialog.getByRole('textbox', { name: 'Website' }).fill('https://acme.example');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/companies\/\d+\/show$/);
    const id = idInPath(page);
    await page.getByRole('heading', { name: 'Acme Robotics' }).waitFor();
    await page.getByText('acme.example').first().waitFor();
    await noSeriousViolations(page);

    // Edit on its page: money with its currency, a select; the show page formats them.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`**/companies/${id}/edit`);
    await page.getByRole('textbox', { name: 'Legal name' }).fill('Acme Robotics SAS');
    await page.getByRole('textbox', { name: 'Revenue', exact: true }).fill('2500000');
    await picker(page, 'Revenue currency').fill('EUR');
    await page.getByRole('option', { name: /^EUR / }).click();
    await noSeriousViolations(page);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`**/companies/${id}/show`);
    // In the record's details (the Activity card names the change too).
    const details = page.getByRole('region', { name: 'Details' });
    await details.getByText('Acme Robotics SAS').waitFor();
    await details.getByText('€2,500,000').waitFor();
    const stored = (await (await server.fetch(`/api/v1/companies/${id}`)).json()) as Record<string, unknown>;
    expect(stored).toMatchObject({ legalName: 'Acme Robotics SAS', revenue: { amount: 2500000, currency: 'EUR' } });

    // A note: markdown rendered, raw HTML not.
    await page
      .getByRole('textbox', { name: 'New note' })
      .fill('**Met the founders** <img src=x onerror="window.hacked=1">');
    await page.getByRole('button', { name: 'Add note' }).click();
    const note = page.getByTestId('note').first();
    await note.locator('strong', { hasText: 'Met the founders' }).waitFor();
    expect(await note.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();
    await note
      .getByText(/^Admin|admin@test\.example|, /)
      .first()
      .waitFor();
    await note.getByRole('button', { name: 'Edit note' }).click();
    await note.getByRole('textbox', { name: 'Edit note' }).fill('Met the *whole* team');
    await note.getByRole('button', { name: 'Save' }).click();
    await note.locator('em', { hasText: 'whole' }).waitFor();

    // A file: uploaded by the button, listed, downloaded with the same bytes.
    const files = page.getByTestId('files-panel');
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      files.getByRole('button', { name: 'Upload' }).click(),
    ]);
    await chooser.setFiles({ name: 'deck.txt', mimeType: 'text/plain', buffer: Buffer.from('the pitch deck') });
    await files.getByRole('button', { name: 'deck.txt', exact: true }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      files.getByRole('button', { name: 'deck.txt', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('deck.txt');
    const path = await download.path();
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(path, 'utf8')).toBe('the pitch deck');
    // A refused type says why, in the server's words.
    const [again] = await Promise.all([
      page.waitForEvent('filechooser'),
      files.getByRole('button', { name: 'Upload' }).click(),
    ]);
    await again.setFiles({
      name: 'setup.exe',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00]),
    });
    await files.getByRole('alert').filter({ hasText: 'This kind of file is not accepted' }).waitFor();
    await files.getByRole('button', { name: 'Delete deck.txt' }).click();
    await files.getByText('No files yet.').waitFor();

    // Delete asks first, then goes back to the list.
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Acme Robotics?' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL(`${server.url}/companies`);
    expect((await server.fetch(`/api/v1/companies/${id}`)).status).toBe(404);
    await page.context().close();
  });

  it('contacts: create in the modal, link a company with a role, remove the link', async () => {
    const company = await create('companies', { name: 'Globex Linked' });
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/contacts`);
    const id = await createThroughModal(page, '/contacts', 'Create: Contact', {
      'First name': 'Ada',
      'Last name': 'Lovelace',
    });
    await page.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();

    const panel = page.getByRole('region', { name: 'Companies' });
    await panel.getByRole('button', { name: 'Add: Company' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add: Company' });
    await picker(dialog, 'Company').fill('Globex');
    await page.getByRole('option', { name: 'Globex Linked' }).click();
    await dialog.getByRole('textbox', { name: 'Role' }).fill('Board member');
    await noSeriousViolations(page);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await panel.getByRole('link', { name: 'Globex Linked' }).waitFor();
    await panel.getByText('Board member').waitFor();
    const links = (await (
      await server.fetch(`/api/v1/contactCompanies?filter[contactId][eq]=${id}&select=companyId,role`)
    ).json()) as { data: unknown[] };
    expect(links.data).toMatchObject([{ companyId: company.id, role: 'Board member' }]);

    // The other side shows it too.
    await panel.getByRole('link', { name: 'Globex Linked' }).click();
    await page.waitForURL(`**/companies/${company.id}/show`);
    await page.getByRole('region', { name: 'Contacts' }).getByRole('link', { name: 'Ada Lovelace' }).click();
    await page.waitForURL(`**/contacts/${id}/show`);

    await panel.getByRole('button', { name: 'Remove Globex Linked' }).click();
    await panel.getByText('None yet.').waitFor();
    await page.context().close();
  });

  it('deals: create in the modal, an investor with a commitment, a stale save shows what changed', async () => {
    const investor = await create('investors', { name: 'Pension Fund Lux' });
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/deals`);
    const id = await createThroughModal(page, '/deals', 'Create: Deal', { Name: 'Project Falcon' });

    const panel = page.getByRole('region', { name: 'Investors' });
    await panel.getByRole('button', { name: 'Add: Investor' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add: Investor' });
    await picker(dialog, 'Investor').fill('Pension');
    await page.getByRole('option', { name: 'Pension Fund Lux' }).click();
    await dialog.getByRole('textbox', { name: 'Commitment', exact: true }).fill('5000000');
    await picker(dialog, 'Commitment currency').fill('USD');
    await page.getByRole('option', { name: /^USD / }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    // The dialog closes once the server took the link: a refused save fails here, a panel not read again below.
    await dialog.waitFor({ state: 'hidden' });
    await panel.locator('tbody').getByText('$5,000,000').waitFor();
    const linked = (await (await server.fetch(`/api/v1/deals/${id}/investors?select=name`)).json()) as {
      data: { id: number; name: string; link: { commitment: unknown } }[];
    };
    expect(linked.data.map(({ id, name, link }) => ({ id, name, commitment: link.commitment }))).toEqual([
      { id: investor.id, name: 'Pension Fund Lux', commitment: { amount: 5000000, currency: 'USD' } },
    ]);

    // Someone else saves while this user edits.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`**/deals/${id}/edit`);
    await page.getByRole('textbox', { name: 'Source' }).waitFor();
    const current = (await (await server.fetch(`/api/v1/deals/${id}`)).json()) as { version: number };
    const theirs = await server.fetch(`/api/v1/deals/${id}`, {
      method: 'PATCH',
      headers: { ...json, 'if-match': String(current.version) },
      body: JSON.stringify({ source: 'Their referral' }),
    });
    expect(theirs.status).toBe(200);
    await page.getByRole('textbox', { name: 'Source' }).fill('My referral');
    await page.getByRole('button', { name: 'Save' }).click();
    const conflict = page.getByRole('dialog', { name: 'Someone else changed this record' });
    await conflict.waitFor();
    const changes = conflict.getByTestId('conflict-changes');
    const source = changes.getByRole('row').filter({ hasText: 'Source' });
    await source.waitFor();
    // Field, when opened (empty), now, yours.
    expect(await source.getByRole('cell').allTextContents()).toEqual(['Source', '', 'Their referral', 'My referral']);
    await noSeriousViolations(page);
    await conflict.getByRole('button', { name: 'Overwrite with mine' }).click();
    await page.waitForURL(`**/deals/${id}/show`);
    // The saved value in the record's details (its history, once read again, names it too).
    await page.getByRole('region', { name: 'Details' }).getByText('My referral').waitFor();
    await page.context().close();
  });

  it('shows the server’s field errors under their fields', async () => {
    await create('contacts', { firstName: 'Grace', lastName: 'Hopper', email: 'grace@test.example' });
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/contacts?create=1`);
    const dialog = page.getByRole('dialog', { name: 'Create: Contact' });
    await dialog.getByRole('textbox', { name: 'First name' }).fill('Grace');
    await dialog.getByRole('textbox', { name: 'Last name' }).fill('Again');
    await dialog.getByRole('textbox', { name: 'Email' }).fill('GRACE@test.example');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    const email = dialog.getByRole('textbox', { name: 'Email' });
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
    await dialog.getByText('Already used').waitFor();
    expect(new URL(page.url()).search).toBe('?create=1');
    await page.context().close();
  });

  it('formats money and dates by the language of the address', async () => {
    const deal = await create('deals', {
      name: 'Project Lark',
      amount: { amount: 2500000, currency: 'EUR' },
      expectedCloseDate: '2025-03-31',
    });
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/deals/${deal.id}/show`);
    await page.getByText('€2,500,000').waitFor();
    await page.getByText('Mar 31, 2025').waitFor();
    await page.goto(`${server.url}/fr/deals/${deal.id}/show`);
    await page.getByText(/^2\s500\s000\s€$/).waitFor();
    await page.getByText('31 mars 2025').waitFor();
    await page.getByRole('link', { name: 'Modifier' }).waitFor();
    await page.context().close();
  });

  it('links references, lists what a record owns, loads more notes, uploads a dropped file', async () => {
    const firm = await create('firms', { name: 'Northwind Partners' });
    const fund = await create('funds', { name: 'Northwind Fund II', currency: 'USD', firmId: firm.id });
    const deal = await create('deals', { name: 'Project Heron', fundId: fund.id });
    for (let n = 1; n <= 11; n += 1) {
      await create('notes', { entity: 'funds', recordId: fund.id, body: `Call number ${n}` });
    }
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/deals/${deal.id}/show`);
    await page.getByRole('link', { name: 'Northwind Fund II' }).click();
    await page.waitForURL(`**/funds/${fund.id}/show`);
    await page.getByRole('link', { name: 'Northwind Partners' }).waitFor();
    await page.getByRole('region', { name: 'Deals' }).getByRole('link', { name: 'Project Heron' }).waitFor();

    const notes = page.getByRole('region', { name: 'Notes' });
    await notes.getByText('Call number 11').waitFor();
    expect(await notes.getByTestId('note').count()).toBe(10);
    await notes.getByRole('button', { name: 'Load More...' }).click();
    await notes.getByText('Call number 1', { exact: true }).waitFor();
    expect(await notes.getByTestId('note').count()).toBe(11);

    const files = page.getByTestId('files-panel');
    const dropped = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['quarterly numbers'], 'q3.csv', { type: 'text/csv' }));
      return transfer;
    });
    await files.dispatchEvent('drop', { dataTransfer: dropped });
    await files.getByRole('button', { name: 'q3.csv', exact: true }).waitFor();
    await page.context().close();
  });

  it('edits a contact: a firm by search, country then state, the phone with the country code', async () => {
    const firm = await create('firms', { name: 'Contoso Ventures' });
    const contact = await create('contacts', { firstName: 'Linus', lastName: 'Cascade' });
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/contacts/${contact.id}/edit`);
    await picker(page, 'Firm').fill('Contoso');
    await page.getByRole('option', { name: 'Contoso Ventures' }).click();
    const state = picker(page, 'HQ state');
    expect(await state.isDisabled()).toBe(true);
    await picker(page, 'HQ country').fill('France');
    await page
      .getByRole('option', { name: /France$/ })
      .first()
      .click();
    expect(await state.isDisabled()).toBe(false);
    await state.click();
    const firstState = page.getByRole('option').first();
    const stateName = (await firstState.textContent()) ?? '';
    await firstState.click();
    await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('1 23 45 67 89');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`**/contacts/${contact.id}/show`);
    await page.getByRole('link', { name: 'Contoso Ventures' }).waitFor();
    const stored = (await (
      await server.fetch(`/api/v1/contacts/${contact.id}?join=hqCountry(name),hqState(name)`)
    ).json()) as Record<string, unknown>;
    expect(stored).toMatchObject({
      firmId: firm.id,
      phone: '+33 1 23 45 67 89',
      hqCountry: { name: 'France' },
      hqState: { name: stateName },
    });
    await page.context().close();
  });

  it('asks before leaving an edit with unsaved changes', async () => {
    const firm = await create('firms', { name: 'Initech Capital' });
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/firms/${firm.id}/edit`);
    await page.getByRole('textbox', { name: 'City' }).fill('Paris');
    await page.getByRole('button', { name: 'Cancel' }).click();
    const ask = page.getByRole('dialog', { name: 'Leave without saving?' });
    await ask.getByRole('button', { name: 'Stay' }).click();
    expect(new URL(page.url()).pathname).toBe(`/firms/${firm.id}/edit`);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await ask.getByRole('button', { name: 'Leave and discard' }).click();
    await page.waitForURL(`**/firms/${firm.id}/show`);
    await page.context().close();
  });

  it('a Viewer sees no Create, Edit, Delete, add or remove', async () => {
    const company = await create('companies', { name: 'Viewer Visible' });
    const contact = await create('contacts', { firstName: 'Vic', lastName: 'Linked' });
    await create('contactCompanies', { contactId: contact.id, companyId: company.id, role: 'Advisor' });
    const viewer = await activeUser(server, 'Viewer');
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/companies/${company.id}/show`, viewer.email, viewer.password);
    await page.getByRole('heading', { name: 'Viewer Visible' }).waitFor();
    const contacts = page.getByRole('region', { name: 'Contacts' });
    await contacts.getByRole('link', { name: 'Vic Linked' }).waitFor();
    expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    expect(await contacts.getByRole('button').count()).toBe(0);
    expect(await page.getByRole('textbox', { name: 'New note' }).count()).toBe(0);
    expect(await page.getByTestId('files-panel').getByRole('button', { name: 'Upload' }).count()).toBe(0);

    await page.goto(`${server.url}/companies?create=1`);
    await page.getByRole('heading', { name: 'Companies', exact: true }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.goto(`${server.url}/companies/${company.id}/edit`);
    await page.getByText('Forbidden').first().waitFor();
    await page.context().close();
  });
});
