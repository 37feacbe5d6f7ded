import type { SavedView } from '@data-platform/shared/saved-views';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithPermissions, withToken } from '../testing/accounts.ts';
import { type ApiClient, adminClient, errorOf } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

const biggestBio = {
  rootPath: '/companies',
  name: 'Biggest bio',
  state: {
    shows: ['name', 'industry', 'employees'],
    filters: [{ field: 'industry', op: 'eq', value: 'Biotech' }],
    sort: '-employees',
    q: '',
  },
};

/** Saved views on the server: per user, shared with the team, not found when gone. */
describe('saved views', () => {
  let server: TestServer;
  let admin: ApiClient;
  let alice: ApiClient;
  let bob: ApiClient;
  let outsider: ApiClient;

  beforeAll(async () => {
    server = await startTestServer();
    admin = adminClient(server);
    const reader = ['companies:read', 'deals:read'] as const;
    alice = withToken(server.url, (await signInWithPermissions(server, reader)).token);
    bob = withToken(server.url, (await signInWithPermissions(server, reader)).token);
    // Signed in, but may not read companies.
    outsider = withToken(server.url, (await signInWithPermissions(server, ['deals:read'])).token);
  });
  afterAll(() => server?.close());

  it('saves a view with a slug from its name, found at its address by its owner in any session', async () => {
    const saved = await alice.post<SavedView>('/api/v1/views', biggestBio);
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({
      slug: 'biggest-bio',
      name: 'Biggest bio',
      shared: false,
      mine: true,
      version: 1,
    });
    expect(saved.headers.get('etag')).toBe('"1"');

    const at = await alice.get<SavedView>('/api/v1/views/at', { rootPath: '/companies', slug: 'biggest-bio' });
    expect(at.status).toBe(200);
    expect(at.body.state).toEqual(biggestBio.state);
    const list = await alice.get<{ data: SavedView[] }>('/api/v1/views', { rootPath: '/companies' });
    expect(list.body.data.map((view) => view.slug)).toEqual(['biggest-bio']);

    // The same name again gets the next free slug; a slug asked for and taken is a conflict.
    const again = await alice.post<SavedView>('/api/v1/views', biggestBio);
    expect(again.body.slug).toBe('biggest-bio-2');
    const taken = await alice.post('/api/v1/views', { ...biggestBio, slug: 'biggest-bio' });
    expect(taken.status).toBe(409);
    expect(errorOf(taken).code).toBe('slug_taken');
    await alice.delete(`/api/v1/views/${again.body.id}`);
  });

  it("answers 404 for another user's private view, and shows a shared one read-only", async () => {
    const mine = await alice.post<SavedView>('/api/v1/views', { ...biggestBio, name: 'Private pipeline' });
    const id = mine.body.id;
    expect((await bob.get(`/api/v1/views/${id}`)).status).toBe(404);
    expect((await bob.get('/api/v1/views/at', { rootPath: '/companies', slug: 'private-pipeline' })).status).toBe(404);
    expect((await bob.patch(`/api/v1/views/${id}`, { name: 'Mine now' }, 1)).status).toBe(404);
    expect((await bob.delete(`/api/v1/views/${id}`)).status).toBe(404);

    const shared = await alice.patch<SavedView>(`/api/v1/views/${id}`, { shared: true }, 1);
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({ shared: true, version: 2, slug: 'private-pipeline' });

    const seen = await bob.get<SavedView>('/api/v1/views/at', { rootPath: '/companies', slug: 'private-pipeline' });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ id, mine: false, shared: true });
    expect(seen.body.ownerName).toEqual(expect.any(String));
    const bobs = await bob.get<{ data: SavedView[] }>('/api/v1/views', { rootPath: '/companies' });
    expect(bobs.body.data.map((view) => view.id)).toContain(id);
    // Readable, not writable.
    expect((await bob.patch(`/api/v1/views/${id}`, { name: 'Mine now' }, 2)).status).toBe(403);
    expect((await bob.delete(`/api/v1/views/${id}`, 2)).status).toBe(403);
    // Someone who may not read companies does not see it.
    expect((await outsider.get(`/api/v1/views/${id}`)).status).toBe(404);
    expect((await outsider.get<{ data: SavedView[] }>('/api/v1/views', { rootPath: '/companies' })).body.data).toEqual(
      [],
    );

    // Bob's own view under the same slug comes first at that address for him.
    const bobsOwn = await bob.post<SavedView>('/api/v1/views', { ...biggestBio, name: 'Private pipeline' });
    expect(bobsOwn.body.slug).toBe('private-pipeline');
    const atForBob = await bob.get<SavedView>('/api/v1/views/at', { rootPath: '/companies', slug: 'private-pipeline' });
    expect(atForBob.body).toMatchObject({ id: bobsOwn.body.id, mine: true });

    // Unshared: gone for Bob's reading of Alice's view.
    await alice.patch(`/api/v1/views/${id}`, { shared: false }, 2);
    expect((await bob.get(`/api/v1/views/${id}`)).status).toBe(404);
  });

  it('checks the version: a stale If-Match is 412, a missing one on an edit 428', async () => {
    const view = await alice.post<SavedView>('/api/v1/views', { ...biggestBio, name: 'Versions' });
    const path = `/api/v1/views/${view.body.id}`;
    expect((await alice.patch(path, { name: 'Versions 2' })).status).toBe(428);
    expect((await alice.patch(path, { name: 'Versions 2' }, 1)).status).toBe(200);
    const stale = await alice.patch(path, { name: 'Versions 3' }, 1);
    expect(stale.status).toBe(412);
    expect((await alice.delete(path, 1)).status).toBe(412);
    expect((await alice.delete(path, 2)).status).toBe(204);
    // Gone: its address answers 404.
    expect((await alice.get(path)).status).toBe(404);
    expect((await alice.get('/api/v1/views/at', { rootPath: '/companies', slug: 'versions' })).status).toBe(404);
  });

  it('accepts only fields of the entity and its custom fields, with operators and values the list takes', async () => {
    const bad = async (state: unknown) => {
      const answer = await alice.post('/api/v1/views', { rootPath: '/companies', name: 'Bad', state });
      return { status: answer.status, fields: errorOf(answer).fields ?? {} };
    };
    expect(await bad({ shows: ['name', 'passwordHash'] })).toMatchObject({
      status: 400,
      fields: { 'state.shows': expect.stringContaining('passwordHash') },
    });
    expect((await bad({ sort: '-nope' })).fields['state.sort']).toContain('nope');
    expect((await bad({ filters: [{ field: 'employees', op: 'contains', value: 'x' }] })).status).toBe(400);
    expect((await bad({ filters: [{ field: 'employees', op: 'gte', value: 'many' }] })).status).toBe(400);
    expect((await bad({ filters: [{ field: 'name', op: 'drop', value: 'x' }] })).status).toBe(400);
    expect((await bad({ shows: ['name'], extra: true })).status).toBe(400);
    const nowhere = await alice.post('/api/v1/views', { rootPath: '/nowhere', name: 'Bad', state: {} });
    expect(nowhere.status).toBe(400);
    // A list the caller may not read: nothing to save a view of.
    expect((await outsider.post('/api/v1/views', biggestBio)).status).toBe(404);

    // A custom field of companies may be named once it exists.
    const custom = await admin.post<{ key: string }>('/api/v1/custom-data', {
      entity: 'companies',
      name: 'Therapeutic area',
      type: 'text',
    });
    expect(custom.status).toBe(201);
    const { key } = custom.body;
    const withCustom = await alice.post<SavedView>('/api/v1/views', {
      rootPath: '/companies',
      name: 'Oncology',
      state: { shows: ['name', key], filters: [{ field: key, op: 'eq', value: 'Oncology' }] },
    });
    expect(withCustom.status).toBe(201);
  });

  it('bounds the size of a view: a huge body is 413, too many columns or filters 400', async () => {
    const huge = await alice.post('/api/v1/views', {
      ...biggestBio,
      state: { ...biggestBio.state, q: 'x'.repeat(100_000) },
    });
    expect(huge.status).toBe(413);
    const many = await alice.post('/api/v1/views', {
      ...biggestBio,
      state: { filters: Array.from({ length: 51 }, () => ({ field: 'name', op: 'eq', value: 'a' })) },
    });
    expect(many.status).toBe(400);
    const longName = await alice.post('/api/v1/views', { ...biggestBio, name: 'n'.repeat(101) });
    expect(longName.status).toBe(400);
  });

  it('keeps at most 500 views of a list per user: the next one is a 409, another list is not affected', async () => {
    const me = (await bob.get<{ id: number }>('/api/v1/auth/me')).body.id;
    // Filled by SQL: 500 requests would test the HTTP stack, not the limit.
    await server.database.rows(
      sql`insert into saved_views (owner_id, root_path, slug, name, state)
        select ${me}, '/deals', 'filler-' || g, 'Filler ' || g, '{}'::jsonb from generate_series(1, 500) g`,
    );
    const full = await bob.post('/api/v1/views', { ...biggestBio, rootPath: '/deals', name: 'One more', state: {} });
    expect(full.status).toBe(409);
    expect(errorOf(full).code).toBe('view_limit');
    const elsewhere = await bob.post<SavedView>('/api/v1/views', { ...biggestBio, name: 'Bob list' });
    expect(elsewhere.status).toBe(201);
    await server.database.rows(sql`delete from saved_views where owner_id = ${me}`);
  });
});
