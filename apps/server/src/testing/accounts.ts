import http from 'node:http';
import type { Permission } from '@data-platform/shared/permissions';
import { type Answer, type ApiClient, apiClient, type Row } from './factories.ts';
import { type Mailbox, tokenOfLink } from './mail.ts';
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

/** What a test needs of a server to make accounts on it. */
export interface AccountServer {
  url: string;
  /** PUBLIC_URL the server was started with: the start of every link it mails. */
  publicUrl: string;
  admin: ApiClient;
  mailbox: Mailbox;
}

export interface TestUser {
  id: number;
  email: string;
  password: string;
  token: string;
  /** A client sending this user's token. */
  api: ApiClient;
}

/** An email address no other test in this process has used. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 8)}@test.example`;
}

/** A password that passes the policy, different for every call. */
export function strongPassword(): string {
  return `violet tugboat ${Math.random().toString(36).slice(2, 10)}`;
}

/** The id of a role by its name. */
export async function roleIdOf(admin: ApiClient, name: string): Promise<number> {
  const answer = await admin.list('/api/v1/roles', { 'filter[name]': name, select: 'name' });
  const role = answer.body.data?.[0];
  if (!role) throw new Error(`No role named ${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return role.id;
}

/** POST /auth/login; the raw answer. */
export function signIn(url: string, email: string, password: string) {
  return apiClient(url).post<{ accessToken: string; user: Row }>('/api/v1/auth/login', { email, password });
}

/** A client sending a bearer token. */
export function withToken(url: string, token: string): ApiClient {
  return apiClient(url, { authorization: `Bearer ${token}` });
}

/**
 * A signed-in user with a role, made the way a person gets one: invited by
 * the administrator, the mailed link followed, the invitation accepted.
 */
export async function invitedUser(server: AccountServer, roleId: number, email = uniqueEmail()): Promise<TestUser> {
  const invited = await server.admin.post('/api/v1/users/invitations', { email, roleId });
  if (invited.status !== 201) throw new Error(`Invitation answered ${invited.status}: ${JSON.stringify(invited.body)}`);
  const mail = await server.mailbox.next(email);
  const password = strongPassword();
  const accepted = await apiClient(server.url).post<{ accessToken: string }>('/api/v1/auth/accept-invitation', {
    token: tokenOfLink(mail, `${server.publicUrl}/register`),
    firstName: 'Test',
    lastName: 'User',
    password,
  });
  if (accepted.status !== 200)
    throw new Error(`Accepting answered ${accepted.status}: ${JSON.stringify(accepted.body)}`);
  const token = accepted.body.accessToken;
  return { id: invited.body.id, email, password, token, api: withToken(server.url, token) };
}

/**
 * POSTs JSON from another loopback address (127.0.0.2, ...), so that limits
 * kept per client address can be reached without slowing other tests.
 */
export function postFrom(localAddress: string, url: string, path: string, body: unknown): Promise<Answer<unknown>> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${url}${path}`,
      {
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers))
            if (typeof value === 'string') headers.set(name, value);
          resolve({ status: response.statusCode ?? 0, headers, body: text ? JSON.parse(text) : text });
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}
