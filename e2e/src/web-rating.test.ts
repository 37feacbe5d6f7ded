import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { newPage, openSignedIn } from './web.ts';

const json = { 'content-type': 'application/json' };

/** A rating custom field in the browser: stars in the grid, on the record page, and picked in the form. */
describe('a rating field', () => {
  let server: TestServer;
  let browser: Browser;
  let key: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    const defined = await server.fetch('/api/v1/custom-data', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ entity: 'companies', name: 'Attractiveness', type: 'rating' }),
    });
    expect(defined.status).toBe(201);
    key = ((await defined.json()) as { key: string }).key;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows stars in the list and on the record page, and picks stars in the form', async () => {
    const made = await server.fetch('/api/v1/companies', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Starlight Labs', [key]: 4 }),
    });
    const { id } = (await made.json()) as { id: number };
    const page = await newPage(browser);

    await openSignedIn(page, `${server.url}/companies?shows=name,${key}&q=Starlight`);
    const grid = page.getByTestId('list-grid');
    await grid.getByRole('img', { name: '4 / 5' }).waitFor();
    expect(await grid.getByRole('img', { name: '4 / 5' }).textContent()).toBe('★★★★★');

    await page.goto(`${server.url}/companies/${id}/show`);
    await page.getByRole('img', { name: '4 / 5' }).waitFor();

    await page.goto(`${server.url}/companies/${id}/edit`);
    // Mantine draws each star as the label of a hidden radio: a person clicks the star.
    const second = await page.getByRole('radio', { name: '2 / 5' }).getAttribute('id');
    await page.locator(`label[for="${second}"]`).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`**/companies/${id}/show`);
    await page.getByRole('img', { name: '2 / 5' }).waitFor();
    const stored = (await (await server.fetch(`/api/v1/companies/${id}?select=${key}`)).json()) as Record<
      string,
      unknown
    >;
    expect(stored[key]).toBe(2);
    await page.context().close();
  });
});
