import { startTestServer, TEST_ADMIN_EMAIL, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { newPage, openSignedIn, picker } from './web.ts';

const json = { 'content-type': 'application/json' };

describe('"My open tasks" on the home page', () => {
  let server: TestServer;
  let browser: Browser;
  let adminId: number;
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

  async function statusOf(id: number): Promise<unknown> {
    return ((await (await server.fetch(`/api/v1/tasks/${id}?select=status`)).json()) as { status: unknown }).status;
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    const admins = (await (
      await server.fetch(`/api/v1/users?filter[email][eq]=${encodeURIComponent(TEST_ADMIN_EMAIL)}&select=email`)
    ).json()) as { data: { id: number }[] };
    adminId = admins.data[0]?.id as number;
    companyId = (await post('companies', { name: 'Acme Robotics' })).id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists my open tasks by due date, overdue marked, linked to the task and its record; done leaves the card', async () => {
    const about = { entity: 'companies', recordId: companyId };
    const overdue = await post('tasks', {
      title: 'Call the CFO',
      dueDate: '2020-01-15',
      ownerId: adminId,
      status: 'Open',
      ...about,
    });
    const later = await post('tasks', {
      title: 'Send the NDA',
      dueDate: '2999-06-30',
      ownerId: adminId,
      status: 'Open',
      ...about,
    });
    await post('tasks', { title: 'Already done', dueDate: '2020-01-01', ownerId: adminId, status: 'Done', ...about });
    await post('tasks', { title: 'Nobody’s task', dueDate: '2020-01-01', status: 'Open', ...about });

    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/`);
    const card = page.getByTestId('my-open-tasks');
    const items = card.getByTestId('my-task');
    await items.first().waitFor();
    expect(await items.count()).toBe(2);
    const first = items.nth(0);
    const second = items.nth(1);
    expect(await first.getByRole('link', { name: 'Call the CFO' }).getAttribute('href')).toBe(
      `/tasks/${overdue.id}/show`,
    );
    expect(await first.getByText('Overdue', { exact: true }).count()).toBe(1);
    const company = first.getByRole('link', { name: 'Acme Robotics' });
    await company.waitFor();
    expect(await company.getAttribute('href')).toBe(`/companies/${companyId}/show`);
    expect(await second.getByRole('link', { name: 'Send the NDA' }).getAttribute('href')).toBe(
      `/tasks/${later.id}/show`,
    );
    expect(await second.getByText('Overdue', { exact: true }).count()).toBe(0);

    await first.getByRole('button', { name: 'Mark “Call the CFO” done' }).click();
    await card.getByRole('link', { name: 'Call the CFO' }).waitFor({ state: 'detached' });
    expect(await items.count()).toBe(1);
    expect(await card.getByRole('link', { name: 'Send the NDA' }).count()).toBe(1);
    expect(await statusOf(overdue.id)).toBe('Done');
    await page.close();
  });

  it('a task made in the form is about a record picked by type and name, and is mine by default', async () => {
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/tasks?create=1`);
    const dialog = page.getByRole('dialog', { name: 'Create: Task' });
    await dialog.waitFor();
    await dialog.getByRole('textbox', { name: 'Title', exact: true }).fill('Book the site visit');
    await picker(dialog, 'Status').click();
    await page.getByRole('option', { name: 'Open', exact: true }).click();
    await picker(dialog, 'Record type').click();
    await page.getByRole('option', { name: 'Company', exact: true }).click();
    await picker(dialog, 'Record').fill('Acme');
    await page.getByRole('option', { name: 'Acme Robotics', exact: true }).click();
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/tasks\/\d+\/show$/);
    const id = Number(/\/tasks\/(\d+)\/show$/.exec(new URL(page.url()).pathname)?.[1]);
    const task = (await (
      await server.fetch(`/api/v1/tasks/${id}?select=title,ownerId,entity,recordId`)
    ).json()) as Record<string, unknown>;
    expect(task).toEqual({
      id,
      title: 'Book the site visit',
      ownerId: adminId,
      entity: 'companies',
      recordId: companyId,
    });
    await page.goto(`${server.url}/`);
    await page.getByTestId('my-open-tasks').getByRole('link', { name: 'Book the site visit' }).waitFor();
    await page.close();
  });
});
