import { startTestServer, type TestServer } from '@data-platform/server/testing/test-server';
import { permissionResources } from '@data-platform/shared/permissions';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { activeUser, invite, newPage, noSeriousViolations, openSignedIn, uniqueAddress } from './web.ts';

const json = { 'content-type': 'application/json' };

/** Picks an option of a Mantine select found by its accessible name. */
async function choose(scope: Page | Locator, name: string, option: string) {
  await scope
    .getByRole('combobox', { name, exact: true })
    .or(scope.getByRole('textbox', { name, exact: true }))
    .click();
  await scope.getByRole('option', { name: option, exact: true }).click();
}

describe('users and roles screens', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function roleId(name: string): Promise<number> {
    const answer = await server.fetch(`/api/v1/roles?filter[name][eq]=${encodeURIComponent(name)}&select=name`);
    const id = ((await answer.json()) as { data: { id: number }[] }).data[0]?.id;
    if (!id) throw new Error(`No role ${name}`);
    return id;
  }

  async function user(id: number): Promise<Record<string, unknown>> {
    return (await (await server.fetch(`/api/v1/users/${id}?join=role(name)`)).json()) as Record<string, unknown>;
  }

  async function mailsTo(email: string): Promise<number> {
    const answer = await server.fetch(`/api/v1/outbox?filter[to][eq]=${encodeURIComponent(email)}&select=subject`);
    return ((await answer.json()) as { data: unknown[] }).data.length;
  }

  it('sends an invitation in a modal, resends it, shows the user, edits them in a modal', async () => {
    const email = uniqueAddress('invitee');
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/users`);
    await page.getByRole('link', { name: 'Send invitation' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send invitation' });
    await dialog.waitFor();
    await noSeriousViolations(page);

    // Checked like the server checks: an email address and a role.
    await dialog.getByRole('textbox', { name: 'Email' }).fill('not an address');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await dialog.getByText('Expected an email address').waitFor();
    await dialog.getByText('Choose a role').waitFor();
    await dialog.getByRole('textbox', { name: 'Email' }).fill(email);
    await choose(dialog, 'Role', 'Editor');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await page.waitForURL(/\/users\/\d+\/show$/);
    const id = Number(/\/users\/(\d+)\/show$/.exec(page.url())?.[1]);
    await page.getByRole('heading', { name: email }).waitFor();
    expect(await page.getByTestId('user-status').textContent()).toBe('Invited');
    expect(await mailsTo(email)).toBe(1);

    await page.getByRole('button', { name: 'Resend Invite' }).click();
    await page.getByText(`A new invitation was sent to ${email}`).waitFor();
    expect(await mailsTo(email)).toBe(2);

    // The same address again is refused, with the server's reason under the field.
    await page.goto(`${server.url}/users?create=1`);
    const again = page.getByRole('dialog', { name: 'Send invitation' });
    await again.getByRole('textbox', { name: 'Email' }).fill(email);
    await choose(again, 'Role', 'Viewer');
    await again.getByRole('button', { name: 'Send invitation' }).click();
    await again.getByText('This email is already invited; resend the invitation instead').waitFor();
    await again.getByRole('button', { name: 'Cancel' }).click();

    // Accepted: the page tells the status, the last sign-in and what happened.
    const token = /\/register\?token=([\w-]+)/.exec(
      (
        (await (
          await server.fetch(`/api/v1/outbox?filter[to][eq]=${encodeURIComponent(email)}&sort=-createdAt&select=text`)
        ).json()) as { data: { text: string }[] }
      ).data[0]?.text ?? '',
    )?.[1];
    const accepted = await fetch(`${server.url}/api/v1/auth/accept-invitation`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ token, firstName: 'Ines', lastName: 'Invitee', password: 'a long test passphrase' }),
    });
    expect(accepted.status).toBe(200);
    await page.goto(`${server.url}/users/${id}/show`);
    await page.getByRole('heading', { name: 'Ines Invitee' }).waitFor();
    expect(await page.getByTestId('user-status').textContent()).toBe('Active');
    const activity = page.getByTestId('user-activity');
    await activity.getByText('Invitation accepted').waitFor();
    expect(await activity.getByText('Invitation sent').count()).toBe(2);
    expect(await page.locator('[data-field="lastSignInAt"]').textContent()).not.toBe('Never');
    expect(await page.locator('[data-field="roleId"]').textContent()).toBe('Editor');
    await noSeriousViolations(page);

    // Edit in a modal: role and status; disabling signs them out.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Ines Invitee' });
    await edit.getByRole('textbox', { name: 'Last name' }).fill('Renamed');
    await choose(edit, 'Role', 'Viewer');
    await edit.locator('label', { hasText: 'Disabled' }).click();
    await edit.getByText('A disabled user is signed out everywhere').waitFor();
    await noSeriousViolations(page);
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Ines Renamed saved').waitFor();
    await page.getByRole('heading', { name: 'Ines Renamed' }).waitFor();
    expect(await user(id)).toMatchObject({ lastName: 'Renamed', status: 'disabled', role: { name: 'Viewer' } });
    const signedOut = await fetch(`${server.url}/api/v1/auth/me`, {
      headers: { authorization: `Bearer ${((await accepted.json()) as { accessToken: string }).accessToken}` },
    });
    expect(signedOut.status).toBe(401);
    await page.context().close();
  });

  it('edits from the list by ?edit=, and a stale save says so and reloads', async () => {
    const { email } = await activeUser(server, 'Viewer');
    const listed = await server.fetch(`/api/v1/users?filter[email][eq]=${encodeURIComponent(email)}&select=version`);
    const { id, version } = ((await listed.json()) as { data: { id: number; version: number }[] }).data[0] as {
      id: number;
      version: number;
    };
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/users`);
    await page.getByRole('searchbox', { name: 'Search' }).fill(email);
    await page.waitForURL(/[?&]q=/);
    await page.getByRole('link', { name: 'Edit Vera Viewer' }).click();
    expect(new URL(page.url()).searchParams.get('edit')).toBe(String(id));
    // The dialog's title follows the user's name, which changes on reload.
    const edit = page.getByRole('dialog', { name: /^Edit Vera / });
    await edit.getByRole('textbox', { name: 'First name' }).fill('Valerie');

    // Someone else renames her meanwhile.
    const other = await server.fetch(`/api/v1/users/${id}`, {
      method: 'PATCH',
      headers: { ...json, 'if-match': String(version) },
      body: JSON.stringify({ lastName: 'Elsewhere' }),
    });
    expect(other.status).toBe(200);
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText('Someone else changed this user').waitFor();
    await edit.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => edit.getByRole('textbox', { name: 'Last name' }).inputValue()).toBe('Elsewhere');
    await edit.getByRole('textbox', { name: 'First name' }).fill('Valerie');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Valerie Elsewhere saved').waitFor();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await page.getByRole('link', { name: 'Show Valerie Elsewhere' }).waitFor();
    expect(await user(id)).toMatchObject({ firstName: 'Valerie', lastName: 'Elsewhere' });
    await page.context().close();
  });

  it('approves an access request with a role and rejects another', async () => {
    const ask = async (firstName: string) => {
      const email = uniqueAddress(firstName.toLowerCase());
      const answer = await fetch(`${server.url}/api/v1/auth/register`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email, firstName, lastName: 'Asker', password: 'a long test passphrase' }),
      });
      expect(answer.status).toBe(202);
      return email;
    };
    const approvedEmail = await ask('Paula');
    await ask('Rita');
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/users`);
    const requests = page.getByTestId('access-requests');
    await requests.getByText('Paula Asker').waitFor();
    await noSeriousViolations(page);
    const approve = requests.getByRole('button', { name: 'Approve Paula Asker' });
    expect(await approve.isDisabled()).toBe(true);
    await choose(requests, 'Role for Paula Asker', 'Editor');
    await approve.click();
    await page.getByText('Paula Asker can now sign in').waitFor();
    await requests.getByRole('button', { name: 'Reject Rita Asker' }).click();
    await page.getByText('The request of Rita Asker was rejected').waitFor();
    await expect.poll(() => page.getByTestId('access-requests').count()).toBe(0);

    const signIn = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: approvedEmail, password: 'a long test passphrase' }),
    });
    expect(signIn.status).toBe(200);
    expect(((await signIn.json()) as { user: { role: { name: string } } }).user.role.name).toBe('Editor');
    await page.context().close();
  });

  it('manages roles in a permission matrix: create, edit, delete; built-in roles are only shown', async () => {
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/users`);
    await page.getByRole('link', { name: 'Manage roles' }).click();
    await page.waitForURL(`${server.url}/roles`);
    const table = page.getByTestId('roles-table');
    await table.getByText('Administrator').waitFor();
    await noSeriousViolations(page);

    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a role' });
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.getByText('Required').first().waitFor();
    await dialog.getByRole('textbox', { name: 'Role name' }).fill('Analyst');
    await dialog.getByRole('checkbox', { name: 'Companies', exact: true }).check();
    await dialog.getByRole('checkbox', { name: 'Deals: Read' }).check();
    await dialog.getByRole('checkbox', { name: 'Export on all data' }).check();
    await noSeriousViolations(page);
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Role Analyst created').waitFor();
    const id = await roleId('Analyst');
    const stored = async () =>
      ((await (await server.fetch(`/api/v1/roles/${id}`)).json()) as { permissions: string[] }).permissions.sort();
    const companies = ['read', 'create', 'update', 'delete', 'import', 'export'].map((a) => `companies:${a}`);
    const exports = permissionResources.filter((r) => r !== 'companies').map((r) => `${r}:export`);
    expect(await stored()).toEqual([...companies, ...exports, 'deals:read'].sort());
    // Six data rights per resource; the role holds companies' six, every other resource's export and deals:read.
    const held = companies.length + exports.length + 1;
    await table.getByText(`${held} of ${permissionResources.length * companies.length} data rights`).waitFor();

    await table.getByRole('button', { name: 'Edit Analyst' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit the role Analyst' });
    await edit.getByRole('checkbox', { name: 'Companies: Delete' }).uncheck();
    await edit.getByRole('checkbox', { name: 'Manage users' }).check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Role Analyst saved').waitFor();
    expect(await stored()).toContain('users:manage');
    expect(await stored()).not.toContain('companies:delete');

    // Built in: shown, not changeable.
    await table.getByRole('button', { name: 'View Administrator' }).click();
    const builtIn = page.getByRole('dialog', { name: 'The role Administrator' });
    await builtIn.getByText('Built-in roles cannot be changed or deleted').waitFor();
    expect(await builtIn.getByRole('checkbox', { name: 'Companies: Delete' }).isChecked()).toBe(true);
    expect(await builtIn.getByRole('checkbox', { name: 'Companies: Delete' }).isDisabled()).toBe(true);
    expect(await builtIn.getByRole('button', { name: 'Save' }).count()).toBe(0);
    await builtIn.getByRole('form').getByRole('button', { name: 'Close', exact: true }).click();
    expect(await table.getByRole('button', { name: 'Delete Administrator' }).count()).toBe(0);

    await table.getByRole('button', { name: 'Delete Analyst' }).click();
    await page
      .getByRole('dialog', { name: 'Delete the role Analyst?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByText('Role Analyst deleted').waitFor();
    expect((await server.fetch(`/api/v1/roles/${id}`)).status).toBe(404);
    await page.context().close();
  });

  it('someone who sees accounts (users:read) but does not manage them cannot invite, edit, delete or manage roles', async () => {
    const roleName = `Readers${Date.now()}`;
    const role = await server.fetch('/api/v1/roles', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: roleName, permissions: ['users:read', 'companies:read'] }),
    });
    expect(role.status).toBe(201);
    await invite(server, uniqueAddress('pending-invite'), 'Viewer');
    const reader = await activeUser(server, roleName);
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/users`, reader.email, reader.password);
    await page.getByRole('heading', { name: 'Users', exact: true }).waitFor();
    await page
      .getByRole('link', { name: /^Show / })
      .first()
      .waitFor();
    expect(await page.getByRole('link', { name: 'Send invitation' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Manage roles' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: /^Edit / }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Delete|Resend Invite) / }).count()).toBe(0);
    expect(await page.getByTestId('access-requests').count()).toBe(0);

    await page.goto(`${server.url}/users?create=1`);
    await page.getByRole('heading', { name: 'Users', exact: true }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.goto(`${server.url}/roles`);
    await page.getByText('Forbidden').first().waitFor();
    await page.context().close();
  });

  it('a Viewer (no users:read) gets neither the Users screens nor roles, and cannot invite', async () => {
    const viewer = await activeUser(server, 'Viewer');
    const page = await newPage(browser);
    await openSignedIn(page, `${server.url}/companies`, viewer.email, viewer.password);
    const sidebar = page.getByRole('navigation');
    await sidebar.getByRole('link', { name: 'Companies' }).first().waitFor();
    expect(await sidebar.getByRole('link', { name: 'Users' }).count()).toBe(0);
    for (const path of ['/users', '/users?create=1', '/users/1/show', '/roles']) {
      await page.goto(`${server.url}${path}`);
      await page.getByText('Forbidden').first().waitFor();
    }

    // The server refuses as well.
    const refused = await fetch(`${server.url}/api/v1/users/invitations`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${viewer.token}` },
      body: JSON.stringify({ email: uniqueAddress('nope'), roleId: await roleId('Viewer') }),
    });
    expect(refused.status).toBe(403);
    await page.context().close();
  });
});
