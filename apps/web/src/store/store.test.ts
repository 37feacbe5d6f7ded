// @vitest-environment jsdom
import { specDataAreas } from '@data-platform/shared/testing/spec-data-areas';
import type { Persistor } from 'redux-persist';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_STORAGE_KEY } from '../constants.ts';
import { login } from './auth-slice.ts';
import { setDefaultShows } from './layouts-slice.ts';
import { countriesList, loadCountries, resourceApi } from './resource-slices.ts';
import { createStore } from './store.ts';

const COUNTRIES = '/api/v1/countries?join=states(id,name)&page=1&pageSize=300&select=name,phoneCode,emoji,createdAt';
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const countriesPage = {
  data: [{ id: 1, name: 'France', phoneCode: '33', emoji: '🇫🇷', createdAt: '2024-01-01T00:00:00Z', states: [] }],
  page: 1,
  pageSize: 300,
  total: 1,
  totalExact: true,
  nextCursor: null,
};
const user = {
  id: 1,
  email: 'a@b.c',
  firstName: null,
  lastName: null,
  fullName: 'a@b.c',
  status: 'active',
  role: null,
};

let calls: { url: string; authorization: string | null }[];
function answer(route: (url: string) => Response) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, authorization: new Headers(init.headers).get('authorization') });
      return route(url);
    }),
  );
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
/** The spec's areas that are not RTK Query caches: in the state from the start, the sign-in screen's. */
const startAreas = ['auth', 'lands', 'configs', 'layouts'];

/** Resolves once redux-persist has read what was kept. */
const rehydrated = (persistor: Persistor) =>
  new Promise<void>((resolve) => {
    if (persistor.getState().bootstrapped) resolve();
    else persistor.subscribe(() => persistor.getState().bootstrapped && resolve());
  });

describe('the store', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('fetches the countries once at start when a token is kept, with the exact query, into the countries area', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'kept');
    answer(() => json(countriesPage));
    const { store, loadDataAreas } = createStore();
    // Asked for at start (a session is held); the signed-in shell waits for the same load.
    await loadDataAreas();
    await settle();
    expect(Object.keys(store.getState())).toEqual(expect.arrayContaining([...specDataAreas]));
    expect(calls).toEqual([{ url: COUNTRIES, authorization: 'Bearer kept' }]);
    const countries = resourceApi('countries').endpoints.list.select(countriesList)(store.getState() as never);
    expect(countries.data?.pages).toEqual([countriesPage]);
    expect(
      Object.keys((store.getState() as unknown as Record<string, { queries: object }>).countries?.queries ?? {}),
    ).toHaveLength(1);
    // Asked again (the forms read them), the kept answer serves: no second fetch.
    await store.dispatch(loadCountries());
    expect(calls).toHaveLength(1);
  });

  it('fetches nothing at start without a token, and holds only the areas the sign-in screen uses', async () => {
    answer(() => json(countriesPage));
    const { store } = createStore();
    await settle();
    expect(calls).toEqual([]);
    expect(Object.keys(store.getState()).sort()).toEqual([...startAreas].sort());
  });

  it('signing in keeps the token, brings every data area the spec lists and fetches the countries', async () => {
    answer((url) => (url.endsWith('/auth/login') ? json({ accessToken: 'fresh', user }) : json(countriesPage)));
    const { store, loadDataAreas } = createStore();
    await store.dispatch(login({ email: 'a@b.c', password: 'x' }));
    // Asked for by the sign-in itself; the signed-in shell waits for the same load.
    await loadDataAreas();
    await settle();
    expect(Object.keys(store.getState())).toEqual(expect.arrayContaining([...specDataAreas]));
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('fresh');
    expect(calls.map((call) => call.url)).toEqual(['/api/v1/auth/login', COUNTRIES]);
    expect(calls[1]?.authorization).toBe('Bearer fresh');
  });

  it('signs out when a call that carried the token answers 401, and forgets the token', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'expired');
    answer(() => json({ error: { code: 'unauthenticated', message: 'Sign in to continue' } }, 401));
    const { store, loadDataAreas } = createStore();
    // The countries' fetch of a kept session carries the token.
    await loadDataAreas();
    await settle();
    expect(calls).toEqual([{ url: COUNTRIES, authorization: 'Bearer expired' }]);
    expect(store.getState().auth.token).toBeNull();
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });

  it('does not sign out on a failed sign-in (401 without a token)', async () => {
    answer(() =>
      json({ error: { code: 'invalid_credentials', message: 'The email or the password is not right' } }, 401),
    );
    const { store } = createStore();
    const result = await store.dispatch(login({ email: 'a@b.c', password: 'wrong' }));
    expect(login.rejected.match(result) && result.payload?.message).toBe('The email or the password is not right');
    expect(store.getState().auth.loading).toBe(false);
  });

  it('persists the layouts, and only them, also once the data areas are in', async () => {
    answer(() => json(countriesPage));
    const { store, persistor, loadDataAreas } = createStore();
    await rehydrated(persistor);
    await loadDataAreas();
    store.dispatch(setDefaultShows({ rootPath: '/deals', shows: ['name'] }));
    await persistor.flush();
    const kept = Object.keys(localStorage).filter((key) => key.startsWith('persist:'));
    expect(kept).toEqual(['persist:layouts']);
    expect(JSON.parse(localStorage.getItem('persist:layouts') ?? '{}').defaultShows).toBe('{"/deals":["name"]}');
  });

  it('rehydrates the kept layouts at start, and keeps them when the data areas come in', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'kept');
    localStorage.setItem(
      'persist:layouts',
      JSON.stringify({
        layouts: '{}',
        defaultShows: '{"/companies":["name","city"]}',
        defaultFilters: '{}',
        _persist: '{"version":-1,"rehydrated":true}',
      }),
    );
    answer(() => json(countriesPage));
    const { store, persistor, loadDataAreas } = createStore();
    await rehydrated(persistor);
    expect(store.getState().layouts.defaultShows).toEqual({ '/companies': ['name', 'city'] });
    await loadDataAreas();
    expect(store.getState().layouts.defaultShows).toEqual({ '/companies': ['name', 'city'] });
    expect(Object.keys(store.getState())).toEqual(expect.arrayContaining([...specDataAreas]));
  });
});
