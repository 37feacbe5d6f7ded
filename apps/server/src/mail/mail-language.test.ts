import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleIdOf, uniqueEmail } from '../testing/accounts.ts';
import { type ApiClient, adminClient, apiClient } from '../testing/factories.ts';
import { type Mailbox, outboxMailbox } from '../testing/mail.ts';
import { startTestServer, TEST_ADMIN_EMAIL, type TestServer } from '../testing/test-server.ts';
import { languageOfHeader } from './request-language.ts';

/**
 * Mails are written in the recipient's language: users store none, so the
 * language the request that sends the mail asks for (Accept-Language), else English.
 */

let server: TestServer;
let admin: ApiClient;
let outbox: Mailbox;

beforeAll(async () => {
  server = await startTestServer();
  admin = adminClient(server);
  outbox = outboxMailbox(admin);
});

afterAll(async () => {
  await server?.close();
});

/** The administrator, asking for `language` (an Accept-Language header) or none. */
const adminAsking = (language?: string) =>
  apiClient(server.url, {
    authorization: `Bearer ${server.token}`,
    ...(language ? { 'accept-language': language } : {}),
  });

describe('mail language', () => {
  it('an invitation sent from a French interface is French, with the role and the date in French', async () => {
    const email = uniqueEmail('french-invite');
    const editor = await roleIdOf(admin, 'Editor');
    const invited = await adminAsking('fr-FR,fr;q=0.9,en;q=0.8').post('/api/v1/users/invitations', {
      email,
      roleId: editor,
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const mail = await outbox.next(email);
    expect(mail.subject).toBe('Vous êtes invité sur Data Platform');
    expect(mail.text).toContain('avec le rôle Éditeur');
    expect(mail.text).not.toMatch(/\bEditor\b|invited you/);
  });

  it('follows the weights of Accept-Language, and English without one', async () => {
    const weighted = uniqueEmail('weighted');
    const viewer = await roleIdOf(admin, 'Viewer');
    await adminAsking('de;q=1, en;q=0.4, fr;q=0.8').post('/api/v1/users/invitations', {
      email: weighted,
      roleId: viewer,
    });
    expect((await outbox.next(weighted)).text).toContain('avec le rôle Lecteur');

    const plain = uniqueEmail('plain');
    await adminAsking().post('/api/v1/users/invitations', { email: plain, roleId: viewer });
    const mail = await outbox.next(plain);
    expect(mail.subject).toBe('You are invited to Data Platform');
    expect(mail.text).toContain('with the role Viewer');
  });

  it('a reset link asked for in French comes in French', async () => {
    const answer = await apiClient(server.url, { 'accept-language': 'fr-CA' }).post('/api/v1/auth/forgot-password', {
      email: TEST_ADMIN_EMAIL,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const mail = await outbox.next(TEST_ADMIN_EMAIL);
    expect(mail.subject).toBe('Réinitialisez votre mot de passe Data Platform');
  });

  it("an access decision is in the deciding administrator's language, each request its own", async () => {
    const pendingUser = async (tag: string) => {
      const email = uniqueEmail(tag);
      const asked = await apiClient(server.url).post('/api/v1/auth/register', {
        email,
        firstName: 'Ada',
        lastName: 'Lovelace',
        password: 'a long enough passphrase 42',
      });
      expect(asked.status, JSON.stringify(asked.body)).toBe(202);
      const pending = await admin.list('/api/v1/users', { 'filter[email]': email });
      return { email, id: (pending.body.data[0] as { id: number }).id };
    };
    const [approved, rejected] = await Promise.all([pendingUser('approved-fr'), pendingUser('rejected-en')]);
    const viewer = await roleIdOf(admin, 'Viewer');
    // Two decisions at once, in two languages: neither mail takes the other's.
    const [yes, no] = await Promise.all([
      adminAsking('fr').post(`/api/v1/users/${approved.id}/approve`, { roleId: viewer }),
      adminAsking('en-GB').post(`/api/v1/users/${rejected.id}/reject`, {}),
    ]);
    expect(yes.status, JSON.stringify(yes.body)).toBe(200);
    expect(no.status, JSON.stringify(no.body)).toBe(200);
    expect((await outbox.next(approved.email)).subject).toBe('Votre accès à Data Platform est approuvé');
    expect((await outbox.next(rejected.email)).subject).toBe('Your request for access to Data Platform');
  });

  it('reads a header as browsers write it', () => {
    const offered = ['en', 'fr'] as const;
    expect(languageOfHeader('fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7', offered)).toBe('fr');
    expect(languageOfHeader('de-DE, en;q=0.5, fr;q=0.6', offered)).toBe('fr');
    expect(languageOfHeader('fr;q=0, en', offered)).toBe('en');
    expect(languageOfHeader('de', offered)).toBeUndefined();
    expect(languageOfHeader(undefined, offered)).toBeUndefined();
  });
});
