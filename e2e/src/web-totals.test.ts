import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { newPage, openSignedIn, seriousViolations, splashGone } from './web.ts';

/**
 * The list's totals footer: the server's totals of the whole filtered list
 * (not of the rows loaded), per currency, grouped by a picklist, read again
 * after a write, in English and French, and axe-clean.
 */

/** Deals named `Totalled nn`: amounts with cents in euros and dollars across three stages. */
const DEALS = [
  { stage: 'Due diligence', amount: { amount: 1_250_000.5, currency: 'EUR' } },
  { stage: 'Sourced', amount: { amount: 300_000.25, currency: 'USD' } },
  { stage: 'Sourced', amount: { amount: 2_000_000, currency: 'EUR' } },
  { stage: 'Term sheet', amount: { amount: 700_000.25, currency: 'USD' } },
  { stage: 'Sourced', amount: null },
  { stage: null, amount: { amount: 49.5, currency: 'EUR' } },
];

const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });

async function create(server: TestServer, resource: string, body: Record<string, unknown>) {
  const answer = await server.fetch(`/api/v1/${resource}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (answer.status !== 201) throw new Error(`Creating answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as { id: number };
}

/** The text of each cell of a table's rows, header cells included; a cell's lines (one per currency) joined by "\n". */
const rowsOf = (page: Page, caption: RegExp) =>
  page
    .getByRole('table', { name: caption })
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) =>
        [...row.querySelectorAll('th, td')].map((cell) => {
          const lines = [...cell.querySelectorAll('span')].map((line) => line.textContent?.trim() ?? '');
          return lines.length > 0 ? lines.join('\n') : (cell.textContent?.trim() ?? '');
        }),
      ),
    );

describe('list totals', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    for (const [i, deal] of DEALS.entries()) {
      await create(server, 'deals', { name: `Totalled ${String(i + 1).padStart(2, '0')}`, ...deal });
    }
    await create(server, 'deals', { name: 'Elsewhere', amount: { amount: 999, currency: 'EUR' } });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the totals of the whole filtered list per currency, subtotals by stage, and reads them again after a delete', async () => {
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/deals?q=Totalled`);
    await page.getByRole('button', { name: 'Show totals' }).click();
    const totals = page.getByRole('table', { name: /^Totals of 6 records$/ });
    await totals.waitFor();
    expect(await totals.locator('thead th').allInnerTexts()).toEqual(['Amount']);
    // Per currency, exactly: euros 1,250,000.50 + 2,000,000 + 49.50; dollars 300,000.25 + 700,000.25.
    expect(await rowsOf(page, /^Totals of/)).toEqual([
      ['Sum', '€3,250,050.00\n$1,000,000.50'],
      ['Average', '€1,083,350.00\n$500,000.25'],
      ['Minimum', '€49.50\n$300,000.25'],
      ['Maximum', '€2,000,000.00\n$700,000.25'],
    ]);
    // The server's totals are those of the list, not of the page the grid loaded; Postgres's exact sums.
    const answer = await server.fetch('/api/v1/deals/aggregates?q=Totalled&fields=amount');
    const body = (await answer.json()) as { count: number; fields: { amount: { currencies: { sum: string }[] } } };
    expect(body.count).toBe(6);
    expect(body.fields.amount.currencies.map((c) => c.sum)).toEqual(['3250050.0', '1000000.50']);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('combobox', { name: 'Group by' }).selectOption({ label: 'Stage' });
    const subtotals = /^Subtotals by Stage$/;
    await page.getByRole('table', { name: subtotals }).waitFor();
    // The stages' defined order (Sourced before Due diligence before Term sheet), no stage last.
    expect(await rowsOf(page, subtotals)).toEqual([
      ['Sourced', '3', '€2,000,000.00\n$300,000.25'],
      ['Due diligence', '1', '€1,250,000.50'],
      ['Term sheet', '1', '$700,000.25'],
      ['No value', '1', '€49.50'],
    ]);
    expect(await seriousViolations(page)).toEqual([]);

    // A write from the list reads the totals again, as it reads the list.
    await page.getByRole('button', { name: 'Delete Totalled 03' }).click();
    await page.getByRole('dialog', { name: 'Delete records' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('table', { name: /^Totals of 5 records$/ }).waitFor();
    await eventually(() => rowsOf(page, subtotals)).toEqual([
      ['Sourced', '2', '$300,000.25'],
      ['Due diligence', '1', '€1,250,000.50'],
      ['Term sheet', '1', '$700,000.25'],
      ['No value', '1', '€49.50'],
    ]);
    await page.context().close();
  });

  it('reads in French, and stays shown on the next visit (the choice is kept in this browser)', async () => {
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/`);
    await page.goto(`${server.url}/fr/deals?q=Totalled 04`);
    await splashGone(page);
    await page.getByRole('button', { name: 'Afficher les totaux' }).click();
    await page.getByRole('table', { name: /^Totaux de 1 fiche$/ }).waitFor();
    const sum = (await rowsOf(page, /^Totaux de/))[0] ?? [];
    expect(sum[0]).toBe('Somme');
    // French groups thousands with a narrow no-break space and writes the decimals after a comma.
    expect(sum[1]).toMatch(/^700\s000,25\s\$US$/);
    await page.reload();
    await page.getByRole('button', { name: 'Masquer les totaux' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});
