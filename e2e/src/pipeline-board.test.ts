import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import { deals } from '@data-platform/shared/entities/deals';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import {
  ARTIFACTS_DIR,
  activeUser,
  createRecord,
  newPage,
  noSeriousViolations,
  open,
  openSignedIn,
  signInWithForm,
  splashGone,
} from './web.ts';

/**
 * The deal board (issue 16): from the deals list to the board and back, a
 * card dragged across stages with the mouse and one moved by the keys, a
 * stale move refused and put back, the columns' totals following, the
 * list's filters on the board; English and French, light and dark, axe-clean.
 */

const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });

describe('deal board', () => {
  let server: TestServer;
  let browser: Browser;
  const ids: Record<string, number> = {};

  const create = (resource: string, body: Record<string, unknown>) => createRecord(server, resource, body);

  async function deal(id: number) {
    return (await (await server.fetch(`/api/v1/deals/${id}`)).json()) as {
      stage: string | null;
      version: number;
      amount: unknown;
    };
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    const adminId = ((await (await server.fetch('/api/v1/auth/me')).json()) as { id: number }).id;
    const fund = await create('funds', { name: 'Harbour Fund II', currency: 'EUR' });
    const acme = await create('companies', { name: 'Acme Robotics' });
    const beta = await create('companies', { name: 'Beta Foods' });
    const deals: [string, Record<string, unknown>][] = [
      [
        'Falcon',
        { stage: 'Sourced', amount: { amount: 1_000_000, currency: 'EUR' }, fundId: fund.id, ownerId: adminId },
      ],
      ['Heron', { stage: 'Sourced', amount: { amount: 500_000, currency: 'USD' } }],
      ['Ibis', { stage: 'First meeting', amount: { amount: 2_000_000, currency: 'EUR' } }],
      ['Jay', { type: 'Seed' }],
    ];
    for (const [name, body] of deals) ids[name] = (await create('deals', { name, ...body })).id;
    await create('dealCompanies', { dealId: ids.Falcon, companyId: beta.id });
    await create('dealCompanies', { dealId: ids.Falcon, companyId: acme.id });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const column = (page: Page, stage: string) => page.locator(`[data-testid="board-column"][data-stage="${stage}"]`);
  const cardIn = (page: Page, stage: string, name: string) =>
    column(page, stage).getByTestId('deal-card').filter({ hasText: name });
  const namesIn = (page: Page, stage: string) =>
    column(page, stage)
      .getByTestId('deal-card')
      .evaluateAll((cards) => cards.map((card) => card.querySelector('span')?.textContent ?? ''));
  const header = async (page: Page, stage: string) =>
    [
      await column(page, stage).getByTestId('column-count').textContent(),
      await column(page, stage).getByTestId('column-amounts').textContent(),
    ].join(' | ');

  it('opens from the list, moves a deal by mouse and one by keys, refuses a stale move, and keeps totals right', async () => {
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/deals`);
    await page.getByRole('navigation', { name: 'Show the deals as' }).getByRole('link', { name: 'Board' }).click();
    await page.waitForURL('**/deals/board');
    await page.getByRole('heading', { name: 'Deal pipeline', level: 1 }).waitFor();

    // The stage picklist's order, then the deals without a stage.
    const stages = await page
      .getByTestId('board-column')
      .evaluateAll((columns) => columns.map((c) => c.getAttribute('data-stage')));
    expect(stages).toEqual([...(deals.fields.stage.options ?? []), '']);
    await eventually(() => namesIn(page, 'Sourced')).toEqual(['Falcon', 'Heron']);
    await eventually(() => header(page, 'Sourced')).toBe('2 deals | €1,000,000 · $500,000');
    expect(await header(page, '')).toBe('1 deal | No amount');
    expect(await namesIn(page, '')).toEqual(['Jay']);
    // The first company by name and how many more, the fund, the owner, the amount.
    const lines = await cardIn(page, 'Sourced', 'Falcon').evaluate((card) =>
      [...card.querySelectorAll('span')].filter((s) => s.children.length === 0).map((s) => s.textContent),
    );
    expect(lines).toEqual([
      'Falcon',
      'Acme Robotics +1 company',
      'Fund: Harbour Fund II',
      'Owner: Admin',
      '€1,000,000',
    ]);

    // The mouse: Falcon dragged from Sourced to Due diligence.
    await cardIn(page, 'Sourced', 'Falcon').dragTo(column(page, 'Due diligence'));
    await eventually(() => namesIn(page, 'Due diligence')).toEqual(['Falcon']);
    await eventually(async () => (await deal(ids.Falcon as number)).stage).toBe('Due diligence');
    await eventually(() => header(page, 'Due diligence')).toBe('1 deal | €1,000,000');
    await eventually(() => header(page, 'Sourced')).toBe('1 deal | $500,000');
    await eventually(() => page.getByTestId('board-announcement').textContent()).toBe('Falcon moved to Due diligence');

    // The keys: Heron focused, Shift+Right to First meeting; the focus follows the card.
    await cardIn(page, 'Sourced', 'Heron').focus();
    await page.keyboard.press('Shift+ArrowRight');
    await eventually(() => namesIn(page, 'First meeting')).toEqual(['Heron', 'Ibis']);
    await eventually(async () => (await deal(ids.Heron as number)).stage).toBe('First meeting');
    await eventually(() => page.getByTestId('board-announcement').textContent()).toBe('Heron moved to First meeting');
    expect(await page.evaluate(() => document.activeElement?.querySelector('span')?.textContent)).toBe('Heron');
    await eventually(() => header(page, 'First meeting')).toBe('2 deals | €2,000,000 · $500,000');
    // Arrows go from card to card: down to Ibis, right to Falcon in Due diligence.
    await eventually(() => namesIn(page, 'First meeting')).toEqual(['Heron', 'Ibis']);
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.querySelector('span')?.textContent)).toBe('Ibis');
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.querySelector('span')?.textContent)).toBe('Falcon');
    await page.keyboard.press('ArrowLeft');

    // Stale: Ibis changed through the API since the board read it; the move is refused, said, and put back.
    const before = await deal(ids.Ibis as number);
    const changed = await server.fetch(`/api/v1/deals/${ids.Ibis}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'if-match': String(before.version) },
      body: JSON.stringify({ amount: { amount: 2_500_000, currency: 'EUR' } }),
    });
    expect(changed.status).toBe(200);
    await cardIn(page, 'First meeting', 'Ibis').dragTo(column(page, 'Due diligence'));
    // Said on the board (beside the app's notification of the server's refusal).
    const alert = page.getByTestId('board-problem');
    await alert.waitFor();
    expect(await alert.textContent()).toContain(
      'Ibis was changed by someone else since the board showed it, so it was not moved: it stays in First meeting.',
    );
    await eventually(() => namesIn(page, 'First meeting')).toEqual(['Heron', 'Ibis']);
    expect(await namesIn(page, 'Due diligence')).toEqual(['Falcon']);
    expect((await deal(ids.Ibis as number)).stage).toBe('First meeting');
    // Read again: the board shows the change that made it stale, and a move now goes through.
    await eventually(() => header(page, 'First meeting')).toBe('2 deals | €2,500,000 · $500,000');
    await cardIn(page, 'First meeting', 'Ibis').dragTo(column(page, 'Due diligence'));
    await eventually(async () => (await deal(ids.Ibis as number)).stage).toBe('Due diligence');
    await eventually(() => header(page, 'Due diligence')).toBe('2 deals | €3,500,000');

    // The list's filters and search work on the board, in its address; back to the list with them.
    await page.getByRole('searchbox', { name: 'Search' }).fill('Heron');
    await page.waitForURL(/q=Heron/);
    await eventually(() => page.getByTestId('deal-card').allInnerTexts()).toHaveLength(1);
    expect(await page.getByTestId('board-total').textContent()).toBe('1 deal');
    await page.getByRole('navigation', { name: 'Show the deals as' }).getByRole('link', { name: 'List' }).click();
    await eventually(() => {
      const address = new URL(page.url());
      return `${address.pathname}${address.search}`;
    }).toBe('/deals?filters=none&q=Heron');
    await page.getByTestId('list-total').filter({ hasText: '1 record' }).waitFor();
    await page.context().close();
  }, 120_000);

  it("shows a deal's time in stage and its stage changes on its page, from its record history", async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await newPage(browser, { colorScheme });
      await openSignedIn(page, `${server.url}/deals/${ids.Falcon}/show`);
      const section = page.getByTestId('stage-history');
      await section.getByTestId('time-in-stage').waitFor();
      expect(await section.getByTestId('time-in-stage').textContent()).toMatch(
        /^In Due diligence for \d+ (minutes?|hours?) \(since .+\)$/,
      );
      const lines = await section.getByTestId('stage-changes').locator('li').allTextContents();
      expect(lines.map((line) => line.replace(/^.*?(?=No stage|Sourced)/, ''))).toEqual([
        'Sourced → Due diligence by Admin',
        'No stage → Sourced by Admin',
      ]);
      await section.screenshot({ path: `${ARTIFACTS_DIR}pipeline-stage-history-${colorScheme}.png` });
      await noSeriousViolations(page);
      await page.context().close();
    }
  }, 120_000);

  it('shows a deep link, reads in French, and is accessible in light and dark', async () => {
    for (const language of ['en', 'fr'] as const) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const page = await newPage(browser, { colorScheme });
        const address = '/deals/board?filter[amount][notNull]=';
        await openSignedIn(page, `${server.url}${address}`);
        if (language === 'fr') await open(page, `${server.url}/fr${address}`);
        await eventually(() => page.getByTestId('deal-card').count()).toBe(3);
        if (language === 'fr') {
          await page.getByRole('heading', { name: 'Pipeline des opérations', level: 1 }).waitFor();
          const euros = new Intl.NumberFormat('fr', { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 });
          await eventually(() => header(page, 'Due diligence')).toBe(`2 opérations | ${euros.format(3_500_000)}`);
        }
        await page.waitForLoadState('networkidle');
        await splashGone(page);
        await page.getByTestId('deal-card').first().waitFor();
        await page.screenshot({ path: `${ARTIFACTS_DIR}pipeline-board-${language}-${colorScheme}.png` });
        await noSeriousViolations(page);
        await page.context().close();
      }
    }
  }, 240_000);

  it('lets a Viewer look at the board without moving deals', async () => {
    const viewer = await activeUser(server, 'Viewer');
    const page = await newPage(browser);
    await open(page, `${server.url}/deals/board`);
    await signInWithForm(page, viewer.email, viewer.password);
    await eventually(() => namesIn(page, 'Due diligence')).toEqual(['Falcon', 'Ibis']);
    expect(await cardIn(page, 'Due diligence', 'Ibis').getAttribute('draggable')).toBe('false');
    await cardIn(page, 'Due diligence', 'Ibis').focus();
    await page.keyboard.press('Shift+ArrowLeft');
    await page.waitForTimeout(500);
    expect((await deal(ids.Ibis as number)).stage).toBe('Due diligence');
    expect(await namesIn(page, 'Due diligence')).toEqual(['Falcon', 'Ibis']);
    await page.context().close();
  });
});
