import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithPermissions } from '../testing/accounts.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

describe('giving roles', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('a user manager cannot give a role with rights they do not hold, themselves included', async () => {
    const manager = await signInWithPermissions(server, ['users:read', 'users:manage']);
    const roles = (await (await server.fetch('/api/v1/roles?select=name')).json()) as {
      data: { id: number; name: string }[];
    };
    const administrator = roles.data.find((r) => r.name === 'Administrator')?.id;
    const as = (path: string, method: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${manager.token}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const me = (await (
      await fetch(`${server.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${manager.token}` } })
    ).json()) as { version: number };
    const raise = await as(
      `/api/v1/users/${manager.userId}`,
      'PATCH',
      { roleId: administrator },
      { 'if-match': String(me.version) },
    );
    expect(raise.status).toBe(403);
    expect(((await raise.json()) as { error: { fields: Record<string, string> } }).error.fields).toEqual({
      roleId: 'Beyond your rights',
    });
    const invite = await as('/api/v1/users/invitations', 'POST', {
      email: 'someone@test.example',
      roleId: administrator,
    });
    expect(invite.status).toBe(403);
    // A role within their own rights is fine.
    const own = (await (
      await server.fetch('/api/v1/roles', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'User managers', permissions: ['users:read', 'users:manage'] }),
      })
    ).json()) as { id: number };
    expect((await as('/api/v1/users/invitations', 'POST', { email: 'peer@test.example', roleId: own.id })).status).toBe(
      201,
    );
  });
});
