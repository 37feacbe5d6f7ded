import { readdirSync, readFileSync } from 'node:fs';
import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { ARTIFACTS_DIR, createRecord, newPage, openSignedIn, picker, splashGone, uniqueAddress } from './web.ts';

const json = { 'content-type': 'application/json' };
const localesDir = new URL('../../packages/shared/src/i18n/locales/', import.meta.url).pathname;

/**
 * Words that read the same to a French user and are not translated on
 * purpose: the product's name. Everything else the English catalog holds
 * and French says differently must not show on a French screen.
 */
const BRAND = new Set(['Data Platform']);

/** `a.b.c` keys of every text of a catalog, with the text. */
function texts(value: unknown, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      for (const [path, text] of texts(child, prefix ? `${prefix}.${key}` : key)) found.set(path, text);
    }
  } else found.set(prefix, String(value));
  return found;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The English-only texts of the catalogs, as matchers of a whole text on
 * screen: texts French writes the same (Contacts, Email, Seed...) are left
 * out, as are bits too short to tell (a unit, a letter); a placeholder
 * matches anything.
 */
function englishOnly(namespaces: readonly string[]): { key: string; text: string; matcher: RegExp }[] {
  const found: { key: string; text: string; matcher: RegExp }[] = [];
  for (const namespace of namespaces) {
    const read = (language: string) =>
      texts(JSON.parse(readFileSync(`${localesDir}${language}/${namespace}.json`, 'utf8')));
    const french = read('fr');
    for (const [key, text] of read('en')) {
      if (french.get(key) === text || BRAND.has(text)) continue;
      const literal = text.replace(/\{\{\w+\}\}/g, '').trim();
      // With a placeholder, too little fixed text matches data ("Due {{date}}" and "Due diligence").
      if (literal.length < (literal.length === text.length ? 3 : 8)) continue;
      const pattern = text
        .split(/\{\{\w+\}\}/)
        .map(escapeRegExp)
        .join('.+');
      found.push({ key: `${namespace}:${key}`, text, matcher: new RegExp(`^${pattern}$`, 's') });
    }
  }
  return found;
}

const uiNamespaces = readdirSync(`${localesDir}en`)
  .map((file) => file.replace(/\.json$/, ''))
  .filter((namespace) => namespace !== 'mail');

/** Every piece of text the page shows: each text node, and each element whose text is only text. */
async function shownTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found = new Set<string>();
    const clean = (text: string) => text.replace(/\s+/g, ' ').trim();
    const visible = (element: Element) => (element as HTMLElement).offsetParent !== null || element.tagName === 'BODY';
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !visible(parent) || ['SCRIPT', 'STYLE'].includes(parent.tagName)) continue;
      const text = clean(node.textContent ?? '');
      if (text) found.add(text);
      const whole = clean(parent.textContent ?? '');
      if (whole) found.add(whole);
    }
    return [...found];
  });
}

/**
 * Issue 13, item 10: the main screens in French show no English text of the
 * catalog, the mails an administrator sends from a French interface are
 * French, and statuses and built-in roles read as words of the language.
 */
describe('a working day in French', () => {
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

  it('shows no English text on the main French screens, the outbox with a French mail', async () => {
    const company = await create('companies', { name: 'Lumière Robotique' });
    const editor = await server.fetch('/api/v1/roles?filter[name][eq]=Editor&select=name');
    const roleId = ((await editor.json()) as { data: { id: number }[] }).data[0]?.id;
    const email = uniqueAddress('invitee');
    // Sent from a French interface: the browser asks for French.
    const invited = await server.fetch('/api/v1/users/invitations', {
      method: 'POST',
      headers: { ...json, 'accept-language': 'fr-FR,fr;q=0.9' },
      body: JSON.stringify({ email, roleId }),
    });
    expect(invited.status).toBe(201);

    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/`);
    const english = englishOnly(uiNamespaces);
    const screens: [string, (page: Page) => Promise<unknown>][] = [
      ['/fr', (p) => p.getByRole('heading', { level: 1 }).first().waitFor()],
      ['/fr/companies', (p) => p.getByRole('link', { name: 'Afficher Lumière Robotique' }).waitFor()],
      [`/fr/companies/${company.id}/show`, (p) => p.getByRole('heading', { name: 'Lumière Robotique' }).waitFor()],
      ['/fr/users', (p) => p.getByText(email).first().waitFor()],
      ['/fr/roles', (p) => p.getByText('Administrateur', { exact: true }).waitFor()],
      ['/fr/outbox', (p) => p.getByTestId('mail').first().waitFor()],
    ];
    const found: string[] = [];
    for (const [path, ready] of screens) {
      await page.goto(`${server.url}${path}`);
      await splashGone(page);
      await ready(page);
      await page.waitForLoadState('networkidle');
      for (const text of await shownTexts(page)) {
        const hit = english.find((entry) => entry.matcher.test(text));
        if (hit) found.push(`${path}: "${text}" (${hit.key})`);
      }
      if (found.length > 0)
        await page.screenshot({ path: `${ARTIFACTS_DIR}web-day-french${path.replace(/\//g, '-')}.png` });
    }
    expect(found).toEqual([]);

    // Statuses read as words with a capital; built-in roles and their descriptions in French.
    await page.goto(`${server.url}/fr/users`);
    await splashGone(page);
    await page.getByText('Actif', { exact: true }).first().waitFor();
    await page.getByText('Invité', { exact: true }).first().waitFor();
    expect(await page.getByText('active', { exact: true }).count()).toBe(0);
    // The Role column names built-in roles in French, as the roles page does.
    await page.getByText('Administrateur', { exact: true }).first().waitFor();
    expect(await page.getByText('Administrator', { exact: true }).count()).toBe(0);
    await page.goto(`${server.url}/fr/roles`);
    await splashGone(page);
    await page.getByText('Lecteur', { exact: true }).waitFor();
    await page.getByText('Lit et exporte toutes les données.').waitFor();

    // The mail is French, its role too, and its text holds nothing of the English mail.
    const mail = await server.fetch(`/api/v1/outbox?filter[to][eq]=${encodeURIComponent(email)}&select=subject,text`);
    const [kept] = ((await mail.json()) as { data: { subject: string; text: string }[] }).data;
    expect(kept?.subject).toBe('Vous êtes invité sur Data Platform');
    expect(kept?.text).toContain('avec le rôle Éditeur');
    const mailParts = (language: string) =>
      [...texts(JSON.parse(readFileSync(`${localesDir}${language}/mail.json`, 'utf8'))).values()]
        .flatMap((text) => text.split(/\{\{\w+\}\}|\n/))
        .map((part) => part.trim());
    const frenchMail = new Set(mailParts('fr'));
    // The signature ("— Data Platform") is the same in both.
    const englishMail = mailParts('en').filter((part) => part.length >= 12 && !frenchMail.has(part));
    expect(englishMail.filter((part) => kept?.text.includes(part))).toEqual([]);
    await page.context().close();
  });

  it('names countries in French: the list, the record page, the picker searched in French', async () => {
    const countryId = async (iso2: string) => {
      const answer = await server.fetch(`/api/v1/countries?filter[iso2][eq]=${iso2}&select=name`);
      const id = ((await answer.json()) as { data: { id: number }[] }).data[0]?.id;
      if (!id) throw new Error(`No country ${iso2}`);
      return id;
    };
    const [germany, unitedStates] = await Promise.all([countryId('DE'), countryId('US')]);
    await create('companies', { name: 'Brasserie Rhénane', hqCountryId: germany });
    const sailing = await create('companies', { name: 'Voilerie Atlantique', hqCountryId: unitedStates });

    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/`);
    await page.goto(`${server.url}/fr/companies`);
    await splashGone(page);
    await page.getByRole('link', { name: 'Afficher Voilerie Atlantique' }).waitFor();
    // The HQ country column: the joined name is the stored English one, shown in French.
    await page.getByText('Allemagne', { exact: true }).first().waitFor();
    await page.getByText('États-Unis', { exact: true }).first().waitFor();
    expect(await page.getByText('Germany', { exact: true }).count()).toBe(0);
    expect(await page.getByText('United States', { exact: true }).count()).toBe(0);

    await page.goto(`${server.url}/fr/companies/${sailing.id}/show`);
    await splashGone(page);
    await page.getByRole('heading', { name: 'Voilerie Atlantique' }).waitFor();
    await page.getByText('États-Unis', { exact: true }).first().waitFor();
    expect(await page.getByText('United States', { exact: true }).count()).toBe(0);

    // The picker finds a country by its French name (the server's search knows the English ones only).
    await page.goto(`${server.url}/fr/companies?create=1`);
    await splashGone(page);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Nom', exact: true }).fill('Fonderie du Rhin');
    await picker(dialog, 'Pays du siège').fill('Allem');
    await page.getByRole('option', { name: 'Allemagne', exact: true }).click();
    await dialog.getByRole('button', { name: 'Créer', exact: true }).click();
    await page.waitForURL('**/fr/companies/*/show');
    await page.getByRole('heading', { name: 'Fonderie du Rhin' }).waitFor();
    await page.getByText('Allemagne', { exact: true }).first().waitFor();
    const created = await server.fetch('/api/v1/companies?filter[name][eq]=Fonderie%20du%20Rhin&select=hqCountryId');
    expect(((await created.json()) as { data: { hqCountryId: number }[] }).data).toMatchObject([
      { hqCountryId: germany },
    ]);
    await page.context().close();
  });
});
