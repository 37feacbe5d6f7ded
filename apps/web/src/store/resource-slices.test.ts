// @vitest-environment jsdom

import { specDataAreas } from '@data-platform/shared/testing/spec-data-areas';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_STORAGE_KEY } from '../constants.ts';
import { logout } from './auth-slice.ts';
import { queryString } from './http.ts';
import { areasShowing } from './invalidation.ts';
import { resourceApi } from './resource-slices.ts';
import { createStore } from './store.ts';
import { recordsWritten } from './written.ts';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const page = (ids: number[], nextCursor: string | null) => ({
  data: ids.map((id) => ({ id, name: `Deal ${id}`, version: 1 })),
  page: 1,
  pageSize: 2,
  total: 3,
  totalExact: true,
  nextCursor,
});

let calls: { method: string; url: string; ifMatch: string | null }[];
/** The network as the store sees it: each call is recorded and answered by `route`. */
function answer(route: (method: string, url: string) => Response) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      calls.push({ method, url, ifMatch: new Headers(init.headers).get('if-match') });
      return route(method, url);
    }),
  );
}
/** The RTK Query cache of one data area in the state. */
const area = (state: unknown, name: string) => (state as Record<string, { queries: Record<string, unknown> }>)[name];
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
/** A store with its data areas in, as the signed-in screens see it. */
async function signedInStore() {
  const made = createStore();
  await made.loadDataAreas();
  return made;
}
const deals = resourceApi('deals');
const dealsList = { params: [['select', 'name,version'] as [string, string]] };

describe('the data areas', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(TOKEN_STORAGE_KEY, 'kept');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('hold every area the spec lists at the top of the state once loaded, the sign-in screen’s ones from the start', async () => {
    answer(() => json(page([], null)));
    const { store, loadDataAreas } = createStore();
    expect(Object.keys(store.getState()).sort()).toEqual(['auth', 'configs', 'lands', 'layouts']);
    await loadDataAreas();
    expect(Object.keys(store.getState())).toEqual(expect.arrayContaining([...specDataAreas]));
    // Once: asked again (another screen), nothing changes.
    const before = store.getState();
    await loadDataAreas();
    expect(store.getState()).toBe(before);
  });

  it('load a list page after page by cursor, in the resource area', async () => {
    answer((_method, url) => json(url.includes('cursor=c1') ? page([3], null) : page([1, 2], 'c1')));
    const { store } = await signedInStore();
    await store.dispatch(deals.endpoints.list.initiate(dealsList));
    await store.dispatch(deals.endpoints.list.initiate(dealsList, { direction: 'forward' }));
    const loaded = deals.endpoints.list.select(dealsList)(store.getState() as never);
    expect(loaded.data?.pages.flatMap((one) => one.data.map((row) => row.id))).toEqual([1, 2, 3]);
    expect(calls.filter((call) => call.url.startsWith('/api/v1/deals')).map((call) => call.url)).toEqual([
      '/api/v1/deals?select=name,version',
      '/api/v1/deals?select=name,version&cursor=c1',
    ]);
  });

  it('ask a total on the first page only: the pages by cursor read rows', async () => {
    answer((_method, url) => json(url.includes('cursor=c1') ? page([3], null) : page([1, 2], 'c1')));
    const { store } = await signedInStore();
    const counted = { params: [...dealsList.params, ['count', 'estimated'] as [string, string]] };
    await store.dispatch(deals.endpoints.list.initiate(counted));
    await store.dispatch(deals.endpoints.list.initiate(counted, { direction: 'forward' }));
    expect(calls.filter((call) => call.url.startsWith('/api/v1/deals')).map((call) => call.url)).toEqual([
      '/api/v1/deals?select=name,version&count=estimated',
      '/api/v1/deals?select=name,version&cursor=c1',
    ]);
  });

  it('save a bulk edit on the rows they can, report the stale one by name and reason, and read the list again', async () => {
    answer((method, url) => {
      if (method === 'PATCH' && url === '/api/v1/deals/2')
        return json({ error: { code: 'stale_version', message: 'Deal 2 was changed by someone else' } }, 412);
      if (method === 'PATCH') return json({ id: Number(url.split('/').at(-1)), version: 2 });
      return json(page([1, 2, 3], null));
    });
    const { store } = await signedInStore();
    const subscription = store.dispatch(deals.endpoints.list.initiate(dealsList));
    await subscription;
    const rows = [1, 2, 3].map((id) => ({ id, name: `Deal ${id}`, version: 1 }));
    const result = await store
      .dispatch(deals.endpoints.bulkUpdate.initiate({ rows, changes: { stage: 'Won' } }))
      .unwrap();
    expect({ done: [...result.done].sort(), failed: result.failed }).toEqual({
      done: [1, 3],
      failed: [{ id: 2, name: 'Deal 2', message: 'Deal 2 was changed by someone else' }],
    });
    expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.ifMatch)).toEqual(['1', '1', '1']);
    await settle();
    const lists = calls.filter((call) => call.method === 'GET' && call.url.startsWith('/api/v1/deals'));
    expect(lists).toHaveLength(2);
    subscription.unsubscribe();
  });

  it('end the session when a bulk action finds it ended (401 on the token it carried)', async () => {
    answer((method) =>
      method === 'DELETE'
        ? json({ error: { code: 'unauthenticated', message: 'Sign in to continue' } }, 401)
        : json(page([], null)),
    );
    const { store } = await signedInStore();
    await settle();
    expect(store.getState().auth.token).toBe('kept');
    const rows = [1, 2].map((id) => ({ id, name: `Deal ${id}`, version: 1 }));
    const result = await store.dispatch(deals.endpoints.bulkRemove.initiate({ rows }));
    expect(result.error).toEqual({
      status: 401,
      code: 'unauthenticated',
      message: 'Sign in to continue',
      authenticated: true,
    });
    expect(store.getState().auth.token).toBeNull();
  });

  it('forget everything at logout', async () => {
    answer(() => json(page([1], null)));
    const { store } = await signedInStore();
    await store.dispatch(deals.endpoints.list.initiate(dealsList));
    expect(Object.keys(area(store.getState(), 'deals')?.queries ?? {})).toHaveLength(1);
    store.dispatch(logout());
    expect(area(store.getState(), 'deals')?.queries).toEqual({});
    expect(area(store.getState(), 'countries')?.queries).toEqual({});
  });
});

describe('what a write reads again', () => {
  it('is every area whose rows show the written one: references, relations and their links', () => {
    expect([...areasShowing('contactCompanies')].sort()).toEqual(['companies', 'contacts']);
    expect([...areasShowing('companies')].sort()).toEqual(['contactCompanies', 'contacts', 'dealCompanies', 'deals']);
    expect([...areasShowing('roles')]).toEqual(['users']);
    expect([...areasShowing('fundPerformances')]).toEqual(['funds']);
  });

  it('includes the custom fields area when a definition or a group is written', () => {
    expect([...areasShowing('entityFieldTypes')].sort()).toEqual(['customFieldGroups', 'customFields']);
    expect([...areasShowing('customFieldGroups')].sort()).toEqual(['customFields', 'entityFieldTypes']);
  });

  it('reads again the lists of the areas showing a written company', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'kept');
    answer((method) => (method === 'PATCH' ? json({ id: 7, version: 2 }) : json(page([1], null))));
    const { store } = await signedInStore();
    const shown = store.dispatch(deals.endpoints.list.initiate(dealsList));
    await shown;
    await store.dispatch(
      resourceApi('companies').endpoints.update.initiate({ id: 7, version: 1, body: { name: 'Acme' } }),
    );
    await settle();
    await settle();
    expect(calls.filter((call) => call.url.startsWith('/api/v1/deals')).map((call) => call.method)).toEqual([
      'GET',
      'GET',
    ]);
    shown.unsubscribe();
    vi.unstubAllGlobals();
  });
});

/**
 * A deal's investors panel (the rows under `deals/7/investors`, in the deals
 * area) while a link is written through the dealInvestors area: the server
 * answers each read of the panel with what it held when the read arrived,
 * and the test decides when each answer lands.
 */
describe('a link written while its relation list is being read', () => {
  const panel = { params: [['select', 'name'] as [string, string]], under: '7/investors' };
  let linked: boolean;
  let heldReads: (() => void)[];

  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(TOKEN_STORAGE_KEY, 'kept');
    linked = false;
    heldReads = [];
    answer((method) => {
      if (method === 'POST') {
        linked = true;
        return json({ id: 1, dealId: 7, investorId: 3, version: 1 });
      }
      return json(page([], null));
    });
    const recorded = vi.mocked(fetch).getMockImplementation();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        if (!url.startsWith('/api/v1/deals/7/investors')) return recorded?.(url, init);
        calls.push({ method: 'GET', url, ifMatch: null });
        const rows = linked ? [3] : [];
        return new Promise<Response>((resolve) => heldReads.push(() => resolve(json(page(rows, null)))));
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  /** Lets every held read answer, and those they cause, until none is left. */
  async function answerAll() {
    for (let read = heldReads.shift(); read; read = heldReads.shift()) {
      read();
      await settle();
      await settle();
    }
  }
  const shownIds = (state: unknown) =>
    deals.endpoints.list
      .select(panel)(state as never)
      .data?.pages.flatMap((one) => one.data.map((row) => row.id));
  const link = () => resourceApi('dealInvestors').endpoints.create.initiate({ dealId: 7, investorId: 3 });

  it('shows it when the panel’s first read was under way at the write (its answer came before the link)', async () => {
    const { store } = await signedInStore();
    const shown = store.dispatch(deals.endpoints.list.initiate(panel));
    await settle();
    expect(heldReads).toHaveLength(1);
    await store.dispatch(link());
    await settle();
    await answerAll();
    expect(shownIds(store.getState())).toEqual([3]);
    shown.unsubscribe();
  });

  it('shows it when a read again of the panel was under way at the write', async () => {
    const { store } = await signedInStore();
    const shown = store.dispatch(deals.endpoints.list.initiate(panel));
    await settle();
    await answerAll();
    // Another write read the panel again; its answer is still on the way when the link is written.
    store.dispatch(recordsWritten({ resource: 'dealCompanies' }));
    await settle();
    expect(heldReads).toHaveLength(1);
    await store.dispatch(link());
    await settle();
    await answerAll();
    expect(shownIds(store.getState())).toEqual([3]);
    shown.unsubscribe();
  });
});

describe('a read the server refuses for a moment (503 with Retry-After)', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(TOKEN_STORAGE_KEY, 'kept');
  });
  afterEach(() => vi.unstubAllGlobals());

  const unavailable = () =>
    new Response(JSON.stringify({ error: { code: 'database_unavailable', message: 'Try again' } }), {
      status: 503,
      headers: { 'content-type': 'application/json', 'retry-after': '0' },
    });

  it('is asked again after the wait the server names, and shows its answer', async () => {
    let refused = 0;
    answer((_method, url) => {
      if (url.startsWith('/api/v1/deals') && refused < 2) {
        refused += 1;
        return unavailable();
      }
      return json(page([1, 2], null));
    });
    const { store } = await signedInStore();
    const result = await store.dispatch(deals.endpoints.list.initiate(dealsList));
    expect(result.data?.pages[0]?.data.map((row) => row.id)).toEqual([1, 2]);
    expect(calls.filter((call) => call.url.startsWith('/api/v1/deals')).map((call) => call.method)).toEqual([
      'GET',
      'GET',
      'GET',
    ]);
  });

  it('fails after two more tries, and a write is never sent twice', async () => {
    answer((_method, url) => (url.startsWith('/api/v1/countries') ? json(page([], null)) : unavailable()));
    const { store } = await signedInStore();
    const read = await store.dispatch(deals.endpoints.list.initiate(dealsList));
    expect(read.error).toMatchObject({ status: 503, code: 'database_unavailable', retryAfterSeconds: 0 });
    const write = await store.dispatch(deals.endpoints.create.initiate({ name: 'Falcon' }));
    expect(write.error).toMatchObject({ status: 503, code: 'database_unavailable' });
    expect(calls.filter((call) => call.url.startsWith('/api/v1/deals')).map((call) => call.method)).toEqual([
      'GET',
      'GET',
      'GET',
      'POST',
    ]);
  });
});

describe('a write to roles', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads again the users, which name their role, and only what shows roles', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'kept');
    answer(() => json(page([1], null)));
    const { store } = await signedInStore();
    // Audit events are read by no screen: no area.
    expect(Object.keys(store.getState())).not.toContain('auditEvents');
    const users = store.dispatch(resourceApi('users').endpoints.list.initiate({ params: [['select', 'fullName']] }));
    const deals = store.dispatch(resourceApi('deals').endpoints.list.initiate({ params: [['select', 'name']] }));
    await Promise.all([users, deals]);
    store.dispatch(recordsWritten({ resource: 'roles' }));
    await settle();
    await settle();
    expect(calls.map((call) => call.url).filter((url) => !url.startsWith('/api/v1/countries'))).toEqual([
      '/api/v1/users?select=fullName',
      '/api/v1/deals?select=name',
      '/api/v1/users?select=fullName',
    ]);
    users.unsubscribe();
    deals.unsubscribe();
  });
});

describe('queryString', () => {
  it('keeps the list grammar readable', () => {
    expect(
      queryString([
        ['join', 'states(id,name)'],
        ['filter[stage][eq]', 'Due diligence'],
        ['q', 'a&b=c'],
      ]),
    ).toBe('join=states(id,name)&filter[stage][eq]=Due%20diligence&q=a%26b%3Dc');
  });
});
