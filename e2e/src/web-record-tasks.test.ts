import { startTestServer, TEST_ADMIN_EMAIL, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { activeUser, newPage, noSeriousViolations, openSignedIn, picker } from './web.ts';

const json = { 'content-type': 'application/json' };

describe('the Tasks panel of a record page', () => {
  let server: TestServer;
  let browser: Browser;
  let adminId: number;
  let adminName: string;
  let companyId: number;

  async function post(resource: string, body: Record<string, unknown>): Promise<{ id: number }> {
    const answer = await server.fetch(`/api/v1/${resource}`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify(body),
    });
    if (answer.status !== 201)
      throw new Error(`Creating ${resource} answered ${answer.status}: ${await answer.text()}`);
    return (await answer.json()) as { id: number };
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    const admins = (await (
      await server.fetch(`/api/v1/users?filter[email][eq]=${encodeURIComponent(TEST_ADMIN_EMAIL)}&select=fullName`)
    ).json()) as { data: { id: number; fullName: string }[] };
    adminId = admins.data[0]?.id as number;
    adminName = admins.data[0]?.fullName as string;
    companyId = (await post('companies', { name: 'Globex Holdings' })).id;
    const other = (await post('companies', { name: 'Initech' })).id;
    const about = { entity: 'companies', recordId: companyId };
    await post('tasks', { title: 'Review the term sheet', dueDate: '2999-03-01', status: 'Open', ...about });
    await post('tasks', {
      title: 'Chase the audit',
      dueDate: '2020-02-01',
      ownerId: adminId,
      status: 'Open',
      ...about,
    });
    await post('tasks', { title: 'Sign the NDA', dueDate: '2020-01-01', ownerId: adminId, status: 'Done', ...about });
    await post('tasks', { title: 'Not about Globex', status: 'Open', entity: 'companies', recordId: other });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const titlesIn = async (scope: import('playwright-core').Locator) =>
    (await scope.getByTestId('task').getByRole('link').allTextContents()).map((text) => text.trim());

  it('lists the record’s tasks, open ones by due date with overdue marked; a task added there shows on the home card; done moves it', async () => {
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/companies/${companyId}/show`);
    const panel = page.getByTestId('tasks-panel');
    const open = panel.getByTestId('open-tasks');
    const done = panel.getByTestId('done-tasks');
    await open.getByRole('link', { name: 'Review the term sheet' }).waitFor();
    expect(await titlesIn(open)).toEqual(['Chase the audit', 'Review the term sheet']);
    expect(await titlesIn(done)).toEqual(['Sign the NDA']);
    const overdue = open.getByTestId('task').nth(0);
    expect(await overdue.getByText('Overdue', { exact: true }).count()).toBe(1);
    expect(await overdue.getByText(`Owner: ${adminName}`, { exact: true }).count()).toBe(1);
    expect(await open.getByTestId('task').nth(1).getByText('Overdue', { exact: true }).count()).toBe(0);
    expect(await open.getByTestId('task').nth(1).getByText('No owner', { exact: true }).count()).toBe(1);
    expect(await done.getByText('Overdue', { exact: true }).count()).toBe(0);
    expect(await done.getByRole('button', { name: /done/i }).count()).toBe(0);
    await noSeriousViolations(page);

    await panel.getByRole('button', { name: 'Add task', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Create: Task' });
    await dialog.waitFor();
    expect(await picker(dialog, 'Record type').inputValue()).toBe('Company');
    await picker(dialog, 'Record').and(page.locator('[value="Globex Holdings"]')).waitFor();
    expect(await picker(dialog, 'Status').inputValue()).toBe('Open');
    await dialog.getByRole('textbox', { name: 'Title', exact: true }).fill('Book the board call');
    await dialog.getByLabel('Due date', { exact: true }).fill('2999-01-15');
    await noSeriousViolations(page);
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe(`/companies/${companyId}/show`);
    await open.getByRole('link', { name: 'Book the board call' }).waitFor();
    expect(await titlesIn(open)).toEqual(['Chase the audit', 'Book the board call', 'Review the term sheet']);
    const link = open.getByRole('link', { name: 'Book the board call' });
    const id = Number(/\/tasks\/(\d+)\/show$/.exec((await link.getAttribute('href')) ?? '')?.[1]);
    const task = (await (
      await server.fetch(`/api/v1/tasks/${id}?select=title,dueDate,ownerId,status,entity,recordId`)
    ).json()) as Record<string, unknown>;
    expect(task).toEqual({
      id,
      title: 'Book the board call',
      dueDate: '2999-01-15',
      ownerId: adminId,
      status: 'Open',
      entity: 'companies',
      recordId: companyId,
    });

    await page.getByRole('link', { name: 'Home', exact: true }).first().click();
    const card = page.getByTestId('my-open-tasks');
    await card.getByRole('link', { name: 'Book the board call' }).waitFor();
    await page.goBack();

    await open.getByRole('button', { name: 'Mark “Book the board call” done' }).click();
    await done.getByRole('link', { name: 'Book the board call' }).waitFor();
    // The two lists are read again each on its own: the open one may show the task a moment longer.
    await expect.poll(() => titlesIn(open)).toEqual(['Chase the audit', 'Review the term sheet']);
    expect(await titlesIn(done)).toEqual(['Book the board call', 'Sign the NDA']);
    await page.close();
  });

  it('a Viewer sees the tasks but cannot add one or mark one done', async () => {
    const viewer = await activeUser(server, 'Viewer');
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/companies/${companyId}/show`, viewer.email, viewer.password);
    const panel = page.getByTestId('tasks-panel');
    await panel.getByRole('link', { name: 'Chase the audit' }).waitFor();
    expect(await titlesIn(panel.getByTestId('open-tasks'))).toEqual(['Chase the audit', 'Review the term sheet']);
    expect(await panel.getByRole('button', { name: 'Add task' }).count()).toBe(0);
    expect(await panel.getByRole('button', { name: /^Mark / }).count()).toBe(0);
    await page.close();
  });
});
