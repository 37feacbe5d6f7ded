import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { ARTIFACTS_DIR, activeUser, newPage, noSeriousViolations, open, openSignedIn, signInWithForm } from './web.ts';

const json = { 'content-type': 'application/json' };

/**
 * The dashboard's recent activity (issue 13): who did what to which record,
 * when, newest first, the record named and linked to its page (a deleted one
 * named by its number, not linked), older lines on "Load more"; in English
 * and French, light and dark, with nothing serious for axe.
 */
describe('recent activity on the dashboard', () => {
  let server: TestServer;
  let browser: Browser;
  let lumen: number;

  async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const answer = await server.fetch(`/api/v1/${path}`, {
      method,
      headers: body instanceof FormData || body === undefined ? headers : { ...json, ...headers },
      body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
    });
    if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${await answer.text()}`);
    return (answer.status === 204 ? { id: 0, version: 0 } : await answer.json()) as { id: number; version: number };
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    // Older lines first: twelve deals, so that the newest lines fill more than the first page.
    for (let i = 1; i <= 12; i++) await send('POST', 'deals', { name: `Older deal ${String(i).padStart(2, '0')}` });
    const company = await send('POST', 'companies', { name: 'Lumen Robotics' });
    lumen = company.id;
    await send('PATCH', `companies/${lumen}`, { city: 'Lyon', employees: 40 }, { 'if-match': String(company.version) });
    await send('POST', 'notes', { entity: 'companies', recordId: lumen, body: 'Met the founders' });
    const form = new FormData();
    form.append('file', new Blob(['minutes']), 'board-minutes.txt');
    await send('POST', `files?entity=companies&recordId=${lumen}`, form);
    const gone = await send('POST', 'companies', { name: 'Gone Ltd' });
    await send('DELETE', `companies/${gone.id}`);
    const csv = new FormData();
    csv.append('file', new Blob(['Name\nImported One\nImported Two']), 'companies.csv');
    await send('POST', 'companies/import', csv);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const card = (page: Page) => page.getByTestId('recent-activity');
  const lineTexts = (page: Page) =>
    card(page)
      .getByTestId('activity-line')
      .evaluateAll((lines) => lines.map((line) => line.firstElementChild?.textContent?.replace(/\s+/g, ' ').trim()));

  it('tells who did what to which record, newest first, linking what still exists; Load more adds older lines', async () => {
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/`);
    await card(page).getByTestId('activity-line').first().waitFor();
    const first = await lineTexts(page);
    expect(first).toEqual([
      'Admin imported 2 companies',
      `Admin deleted company #${lumen + 1}`,
      `Admin created company #${lumen + 1} (since deleted)`,
      'Admin uploaded board-minutes.txt to company Lumen Robotics',
      'Admin added a note to company Lumen Robotics',
      'Admin updated company Lumen Robotics',
      'Admin created company Lumen Robotics',
      'Admin created deal Older deal 12',
      'Admin created deal Older deal 11',
      'Admin created deal Older deal 10',
    ]);
    // What an update changed, by the fields' labels.
    await card(page).getByText('Changed: City, Employees').waitFor();
    // The deleted company is named by its number, not a link; the others open their pages.
    expect(
      await card(page)
        .getByRole('link', { name: `#${lumen + 1}` })
        .count(),
    ).toBe(0);

    await card(page).getByRole('button', { name: 'Load more' }).click();
    await expect.poll(async () => (await lineTexts(page)).length).toBe(19);
    expect((await lineTexts(page)).at(-1)).toBe('Admin created deal Older deal 01');
    expect(await card(page).getByRole('button', { name: 'Load more' }).count()).toBe(0);

    await card(page).getByRole('link', { name: 'Lumen Robotics' }).first().click();
    await page.waitForURL(`**/companies/${lumen}/show`);
    await page.getByRole('heading', { name: 'Lumen Robotics' }).waitFor();
  });

  it('reads in French and is accessible in light and dark', async () => {
    for (const language of ['en', 'fr'] as const) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const page = await newPage(browser, { colorScheme });
        await openSignedIn(page, `${server.url}/`);
        if (language === 'fr') await open(page, `${server.url}/fr`);
        await card(page).getByTestId('activity-line').nth(9).waitFor();
        if (language === 'fr') {
          expect((await lineTexts(page)).slice(3, 7)).toEqual([
            'Admin a déposé board-minutes.txt sur la fiche entreprise Lumen Robotics',
            'Admin a ajouté une note à la fiche entreprise Lumen Robotics',
            'Admin a modifié la fiche entreprise Lumen Robotics',
            'Admin a créé la fiche entreprise Lumen Robotics',
          ]);
          await card(page).getByText('Modifié : Ville, Salariés').waitFor();
        }
        await page.waitForLoadState('networkidle');
        await card(page).screenshot({ path: `${ARTIFACTS_DIR}activity-${language}-${colorScheme}.png` });
        await page.screenshot({
          path: `${ARTIFACTS_DIR}dashboard-activity-${language}-${colorScheme}.png`,
          fullPage: true,
        });
        await noSeriousViolations(page);
        await page.context().close();
      }
    }
  });

  it("shows a Viewer the same lines, named as the Viewer's lists name them", async () => {
    const viewer = await activeUser(server, 'Viewer');
    const page = await newPage(browser);
    await open(page, `${server.url}/`);
    await signInWithForm(page, viewer.email, viewer.password);
    await card(page).getByTestId('activity-line').first().waitFor();
    expect((await lineTexts(page)).slice(3, 4)).toEqual(['Admin uploaded board-minutes.txt to company Lumen Robotics']);
  });
});
