import type { Permission } from '@data-platform/shared/permissions';
import type { TestServer } from './test-server.ts';

let counter = 0;

/**
 * A signed-in user whose role holds exactly `permissions`, made the way a
 * person would be: a role, an invitation, the link from the outbox, acceptance.
 * Needs a server without SMTP_URL (mails go to the outbox).
 */
export async function signInWithPermissions(
  server: TestServer,
  permissions: readonly Permission[],
): Promise<{ token: string; userId: number; email: string }> {
  counter += 1;
  const suffix = `${counter}-${Math.random().toString(36).slice(2, 8)}`;
  const json = { 'content-type': 'application/json' };
  const role = await server.fetch('/api/v1/roles', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ name: `Role ${suffix}`, permissions }),
  });
  if (role.status !== 201) throw new Error(`Creating a role answered ${role.status}: ${await role.text()}`);
  const { id: roleId } = (await role.json()) as { id: number };
  const email = `user-${suffix}@test.example`;
  const invited = await server.fetch('/api/v1/users/invitations', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, roleId }),
  });
  if (invited.status !== 201) throw new Error(`Inviting answered ${invited.status}: ${await invited.text()}`);
  const outbox = await server.fetch(`/api/v1/outbox?filter[to][eq]=${encodeURIComponent(email)}&sort=-createdAt`);
  const { data } = (await outbox.json()) as { data: { text: string }[] };
  const token = /register\?token=([\w-]+)/.exec(data[0]?.text ?? '')?.[1];
  if (!token) throw new Error(`No invitation link in the outbox for ${email}`);
  const accepted = await fetch(`${server.url}/api/v1/auth/accept-invitation`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ token, firstName: 'Test', lastName: `User ${suffix}`, password: 'a long test passphrase' }),
  });
  if (accepted.status !== 200) throw new Error(`Accepting answered ${accepted.status}: ${await accepted.text()}`);
  const body = (await accepted.json()) as { accessToken: string; user: { id: number } };
  return { token: body.accessToken, userId: body.user.id, email };
}
