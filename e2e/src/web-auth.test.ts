import { startTestServer, TEST_ADMIN_EMAIL, type TestServer } from '@data-platform/server/testing/test-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { activeUser, invite, newPage, open, openSignedIn, signInWithForm, uniqueAddress } from './web.ts';

const COUNTRIES_QUERY = '?join=states(id,name)&page=1&pageSize=300&select=name,phoneCode,emoji,createdAt';
const heldToken = (page: Page) => page.evaluate(() => localStorage.getItem('token'));

describe('signing in and the account screens', () => {
  let server: TestServer;
  let browser: Browser;
  const me = (token: string | null) =>
    fetch(`${server.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('refuses a wrong password with the server message, signs in, fetches the countries once, signs out', async () => {
    const page = await newPage(browser);
    const countryCalls: { search: string; authorization: string | undefined }[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/v1/countries') {
        countryCalls.push({ search: url.search, authorization: request.headers().authorization });
      }
    });
    await open(page, server.url);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await signInWithForm(page, TEST_ADMIN_EMAIL, 'not the password at all');
    // Said once, in the form: no notification repeats it (issue 13, item 5).
    const refused = page.getByRole('alert').filter({ hasText: 'The email or the password is not right' });
    await refused.first().waitFor();
    expect(await refused.count()).toBe(1);
    expect(countryCalls).toEqual([]);

    await signInWithForm(page);
    await page.getByRole('heading', { name: /^Welcome, / }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    const token = await heldToken(page);
    await expect.poll(() => countryCalls.length).toBe(1);
    expect(countryCalls[0]).toEqual({ search: COUNTRIES_QUERY, authorization: `Bearer ${token}` });
    await page.getByRole('navigation').getByRole('link', { name: 'Deals' }).click();
    await page.getByRole('heading', { name: 'Deals', exact: true }).waitFor();
    expect(countryCalls).toHaveLength(1);

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    expect(await heldToken(page)).toBeNull();
    expect(await me(token)).toBe(401);
    await page.context().close();
  });

  it('sends to sign in on a 401 anywhere, and back to where the user was after', async () => {
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/deals?filter[stage][eq]=Closing`);
    await page.getByRole('heading', { name: 'Deals', exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('filter[stage][eq]')).toBe('Closing');

    // The session ends on the server (revoked, expired): the next call answers 401.
    const token = await heldToken(page);
    await fetch(`${server.url}/api/v1/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    // Searching asks the server again, which now answers 401.
    await page.getByLabel('Search', { exact: true }).fill('Nothing that matches');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByText('Your session has ended. Sign in again to continue.').waitFor();
    // Back to the same list, its filter and search included.
    const redirect = new URL(page.url()).searchParams.get('redirect') ?? '';
    expect(new URL(redirect, server.url).pathname).toBe('/deals');
    expect(new URL(redirect, server.url).searchParams.get('filter[stage][eq]')).toBe('Closing');

    await signInWithForm(page);
    await page.getByRole('heading', { name: 'Deals', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/deals');
    await page.context().close();
  });

  it('resets a forgotten password with the link from the outbox', async () => {
    const user = await activeUser(server, 'Viewer');
    const page = await newPage(browser);
    await open(page, `${server.url}/sign-in`);
    await page.getByRole('link', { name: 'Forgot Password' }).click();
    // The page loads on demand: until it shows, the sign-in form (and its email box) is still there.
    await page.getByRole('heading', { name: 'Forgot Password' }).waitFor();
    await page.locator('input[name="email"]').fill(user.email);
    await page.getByRole('button', { name: 'Mail me a link' }).click();
    await page.getByText('If an account uses this email, a reset link is on its way.').waitFor();
    expect(await page.getByRole('link', { name: 'Back to sign in' }).count()).toBe(1);

    // An administrator reads the mail in the outbox (no SMTP server in tests).
    const admin = await newPage(browser, { storage: { token: server.token } });
    await open(admin, `${server.url}/outbox`);
    const mail = admin
      .getByRole('article', { name: 'Reset your Data Platform password' })
      .filter({ hasText: `To ${user.email}` });
    const href = await mail.getByRole('link', { name: /reset-password\?token=/ }).getAttribute('href');
    await admin.context().close();
    // The server mails its public address; the test server listens elsewhere.
    const link = new URL(href ?? '');
    await open(page, `${server.url}${link.pathname}${link.search}`);

    await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
    await page.locator('input[name="password"]').fill('a brand new passphrase');
    await page.locator('input[name="confirmPassword"]').fill('a different passphrase');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('The two passwords differ').waitFor();
    await page.locator('input[name="confirmPassword"]').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Your password is changed. Sign in with it.').waitFor();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signInWithForm(page, user.email, 'a brand new passphrase');
    await page.getByRole('heading', { name: 'Welcome, Vera Viewer' }).waitFor();
    await page.context().close();
  });

  it('accepts an invitation, signing out the session held before', async () => {
    const page = await newPage(browser);
    await openSignedIn(page, server.url);
    const before = await heldToken(page);
    const email = uniqueAddress('invited');
    const invitation = await invite(server, email, 'Editor');

    await page.goto(`${server.url}/register?token=${invitation}`);
    await page.getByRole('heading', { name: 'Accept your invitation' }).waitFor();
    expect(await heldToken(page)).toBeNull();
    await expect.poll(() => me(before)).toBe(401);

    await page.locator('input[name="firstName"]').fill('Ines');
    await page.locator('input[name="lastName"]').fill('Invited');
    await page.locator('input[name="password"]').fill('short');
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByText('At least 12 characters', { exact: true }).waitFor();
    await page.locator('input[name="password"]').fill('ines chooses a passphrase');
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByRole('heading', { name: 'Welcome, Ines Invited' }).waitFor();
    await page.getByText('Welcome to Data Platform, Ines Invited.').waitFor();
    // The session now held is the invited user's own.
    const after = await heldToken(page);
    const who = await fetch(`${server.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${after}` } });
    expect(who.status).toBe(200);
    expect(((await who.json()) as { email: string }).email).toBe(email);
    await page.context().close();
  });

  it('sends an access request from /register without a token', async () => {
    const page = await newPage(browser);
    const email = uniqueAddress('asking');
    await open(page, `${server.url}/sign-in`);
    await page.getByRole('link', { name: 'Request access' }).click();
    await page.getByRole('heading', { name: 'Request access' }).waitFor();
    await page.locator('input[name="email"]').fill(email);
    await page.locator('input[name="firstName"]').fill('Ravi');
    await page.locator('input[name="lastName"]').fill('Request');
    await page.locator('input[name="password"]').fill('ravi would like access');
    await page.getByRole('button', { name: 'Request access' }).click();
    await page.getByText('Thank you. An administrator will review your request.').waitFor();
    const users = await server.fetch(`/api/v1/users?filter[email][eq]=${encodeURIComponent(email)}&select=status`);
    expect(((await users.json()) as { data: { status: string }[] }).data[0]?.status).toBe('pending');
    await page.context().close();
  });

  it('changes the password of the signed-in user', async () => {
    const user = await activeUser(server, 'Viewer');
    const page = await newPage(browser);
    await openSignedIn(page, server.url, user.email, user.password);
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Change password' }).click();
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    await page.locator('input[name="currentPassword"]').fill('not my password at all');
    await page.locator('input[name="password"]').fill('vera picks another one');
    await page.locator('input[name="confirmPassword"]').fill('vera picks another one');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('This is not your current password').first().waitFor();
    await page.locator('input[name="currentPassword"]').fill(user.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password is changed.').waitFor();
    const signIn = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: 'vera picks another one' }),
    });
    expect(signIn.status).toBe(200);
    await page.context().close();
  });
});
