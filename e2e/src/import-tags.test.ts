import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { ARTIFACTS_DIR, newPage, noSeriousViolations, openImportWizard, picker } from './web.ts';

/**
 * Tags in the import wizard (issue 14): each value of a Tags column is offered
 * the tags already stored, the one written the same but for case preselected;
 * a value none matches is kept as a new tag, not flagged; one value is left
 * out by hand; the records get the stored tags' spelling.
 */
describe('import wizard, tags', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    for (const tags of [['Fintech', 'AI'], ['Fintech']]) {
      const answer = await server.fetch('/api/v1/companies', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Stored ${tags.join(' ')}`, tags }),
      });
      expect(answer.status).toBe(201);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Picks `option` in the select named `name` inside `scope`. */
  async function choose(page: Page, scope: Locator, name: string, option: string) {
    await picker(scope, name).click();
    await page.getByRole('option', { name: option, exact: true }).click();
    await expect.poll(() => picker(scope, name).inputValue()).toBe(option);
  }

  it('maps tag values onto the stored tags, keeps new ones, and leaves one out', async () => {
    const page = await newPage(browser);
    const dialog = await openImportWizard(page, `${server.url}/companies`);
    const csv = ['Name,Tags', 'Tag Alpha,fintech; ai; Climate', 'Tag Beta,AI; crypto'].join('\n');
    await dialog.locator('input[type="file"]').setInputFiles({
      name: 'tags.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();

    const tags = dialog.getByTestId('import-values-tags');
    await tags.waitFor();
    expect(await picker(tags, 'Tags tag for “fintech”').inputValue()).toBe('Fintech');
    expect(await picker(tags, 'Tags tag for “ai”').inputValue()).toBe('AI');
    expect(await picker(tags, 'Tags tag for “Climate”').inputValue()).toBe('Keep as a new tag');
    expect(await picker(tags, 'Tags tag for “crypto”').inputValue()).toBe('Keep as a new tag');
    expect(await tags.getByText('No option matches', { exact: false }).count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS_DIR}import-tags-map.png` });
    await noSeriousViolations(page);
    await choose(page, tags, 'Tags tag for “crypto”', 'Leave this tag out');

    await dialog.getByRole('button', { name: 'Preview', exact: true }).click();
    await dialog.getByTestId('import-preview').waitFor();
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const done = dialog.getByTestId('import-done');
    await done.waitFor();
    await done.getByText('Import finished').waitFor();

    const answer = await server.fetch('/api/v1/companies?filter[name][startsWith]=Tag%20&sort=name');
    const { data } = (await answer.json()) as { data: { name: string; tags: string[] }[] };
    expect(data.map((c) => [c.name, c.tags])).toEqual([
      ['Tag Alpha', ['Fintech', 'AI', 'Climate']],
      ['Tag Beta', ['AI']],
    ]);
  });
});
