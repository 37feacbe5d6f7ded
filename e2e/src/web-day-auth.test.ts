import { startTestServer, TEST_ADMIN_EMAIL, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { activeUser, newPage, open, openSignedIn, signInWithForm } from './web.ts';

const json = { 'content-type': 'application/json' };

/**
 * Issue 13, items 5 and 6, as a user meets them: a failed sign-in says so
 * once and leaves nothing behind, and deleting one user answers as one action.
 */
describe('a working day: signing in and deleting a user', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('a wrong password is said once, on the form; signing in then shows no error', async () => {
    const page = await newPage(browser);
    await open(page, `${server.url}/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signInWithForm(page, TEST_ADMIN_EMAIL, 'not the password at all');
    const refusal = page.getByText('The email or the password is not right');
    await refusal.first().waitFor();
    // The form is still there to try again, and the refusal is its only message.
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await refusal.count()).toBe(1);
    expect(await page.getByRole('alert').count()).toBe(1);

    await signInWithForm(page);
    await page.getByTestId('user-menu').waitFor();
    expect(await page.getByText('The email or the password is not right').count()).toBe(0);
    expect(await page.locator('.Toastify__toast--error').count()).toBe(0);
    await page.context().close();
  });

  it('deleting one user answers as one action: "<name> deleted", or the server\'s reason', async () => {
    // A manager of users whose role holds less than an administrator's.
    const role = await server.fetch('/api/v1/roles', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Leads', permissions: ['users:read', 'users:manage'] }),
    });
    expect(role.status).toBe(201);
    const lead = await activeUser(server, 'Leads');
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/users`, lead.email, lead.password);
    await page.getByRole('button', { name: 'Delete Admin' }).click();
    await page.getByRole('dialog', { name: 'Delete records' }).getByRole('button', { name: 'Delete' }).click();
    await page
      .getByText(/You cannot act on Admin/)
      .first()
      .waitFor();
    expect(await page.getByText(/Done for/).count()).toBe(0);
    await page.context().close();

    await activeUser(server, 'Viewer');
    const admin = await newPage(browser);
    await openSignedIn(admin, `${server.url}/users`);
    // Vera Viewer is the name activeUser gives.
    await admin.getByRole('button', { name: 'Delete Vera Viewer' }).first().click();
    await admin.getByRole('dialog', { name: 'Delete records' }).getByRole('button', { name: 'Delete' }).click();
    await admin.getByText('Vera Viewer deleted').waitFor();
    expect(await admin.getByText(/Done for/).count()).toBe(0);
    // One's own row offers no Delete (the server refuses it too: 409 self_delete); others' rows do.
    expect(await admin.getByRole('button', { name: /^Delete Admin/ }).count()).toBe(0);
    expect(await admin.getByRole('button', { name: /^Delete Vera Viewer/ }).count()).toBeGreaterThan(0);
    // Two users are named Vera Viewer (activeUser's name): one of them is now the kept "Deleted user" row.
    const gone = await server.fetch('/api/v1/users?filter[status][eq]=deleted&select=fullName');
    expect(((await gone.json()) as { data: { fullName: string }[] }).data).toMatchObject([
      { fullName: 'Deleted user' },
    ]);
    await admin.context().close();
  });
});
