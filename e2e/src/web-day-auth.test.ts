import { startTestServer, TEST_ADMIN_EMAIL, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { newPage, open, signInWithForm } from './web.ts';

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
});
