import { describe, expect, it } from 'vitest';
import { logout } from './auth-slice.ts';
import { queryString } from './http.ts';
import {
  type GetAllArgs,
  getAll,
  initialResourceState,
  resourceReducers,
  rowsChanged,
  rowsRemoved,
} from './resource-slices.ts';

const deals = resourceReducers.deals;
const args: GetAllArgs = { resource: 'deals', query: [['select', 'name']] };
const page = (ids: number[], nextCursor: string | null) => ({
  data: ids.map((id) => ({ id, name: `Deal ${id}` })),
  page: 1,
  pageSize: 2,
  total: 3,
  totalExact: true,
  nextCursor,
});

describe('resource areas', () => {
  it('load a first page, then append the next one by cursor', () => {
    let state = deals(initialResourceState, getAll.pending('r1', args));
    expect(state.status).toBe('loading');
    state = deals(state, getAll.fulfilled(page([1, 2], 'c1'), 'r1', args));
    expect(state).toMatchObject({ status: 'loaded', total: 3, nextCursor: 'c1', query: 'select=name' });
    const more = { ...args, cursor: 'c1' };
    state = deals(state, getAll.pending('r2', more));
    state = deals(state, getAll.fulfilled(page([3], null), 'r2', more));
    expect(state.items.map((row) => row.id)).toEqual([1, 2, 3]);
    expect(state.nextCursor).toBeNull();
  });

  it('append a page keeping the rows already loaded as they were, and all of them read-only', () => {
    let state = deals(initialResourceState, getAll.pending('r1', args));
    state = deals(state, getAll.fulfilled(page([1, 2], 'c1'), 'r1', args));
    const first = state.items[0];
    const more = { ...args, cursor: 'c1' };
    state = deals(deals(state, getAll.pending('r2', more)), getAll.fulfilled(page([3], null), 'r2', more));
    expect(state.items[0]).toBe(first);
    expect(Object.isFrozen(state.items)).toBe(true);
    expect(Object.isFrozen(state.items[2])).toBe(true);
  });

  it('drop the answer of a request that a newer one replaced', () => {
    const other = { ...args, query: [['select', 'stage']] as [string, string][] };
    let state = deals(initialResourceState, getAll.pending('old', args));
    state = deals(state, getAll.pending('new', other));
    state = deals(state, getAll.fulfilled(page([1, 2], null), 'old', args));
    expect(state.items).toEqual([]);
    expect(state.status).toBe('loading');
  });

  it('keep the error of a failed load', () => {
    let state = deals(initialResourceState, getAll.pending('r1', args));
    const failure = { status: 400, code: 'validation_failed', message: 'Unknown field x', authenticated: true };
    state = deals(state, getAll.rejected(null, 'r1', args, failure));
    expect(state).toMatchObject({ status: 'failed', error: 'Unknown field x' });
  });

  it('ignore other resources and forget everything at logout', () => {
    const loaded = deals(
      deals(initialResourceState, getAll.pending('r1', args)),
      getAll.fulfilled(page([1], null), 'r1', args),
    );
    const funds = { ...args, resource: 'funds' as const };
    expect(deals(loaded, getAll.pending('r2', funds))).toBe(loaded);
    expect(deals(loaded, logout())).toEqual(initialResourceState);
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

describe('rows changed on the server', () => {
  const loaded = () => {
    const state = deals(initialResourceState, getAll.pending('r1', args));
    return deals(state, getAll.fulfilled(page([1, 2, 3], null), 'r1', args));
  };

  it('leave the loaded list when deleted, and the exact total counts them out', () => {
    const state = deals(loaded(), rowsRemoved({ resource: 'deals', ids: [2] }));
    expect(state.items.map((row) => row.id)).toEqual([1, 3]);
    expect(state.total).toBe(2);
    expect(resourceReducers.funds(initialResourceState, rowsRemoved({ resource: 'deals', ids: [2] }))).toBe(
      initialResourceState,
    );
  });

  it('take their new values when updated', () => {
    const state = deals(loaded(), rowsChanged({ resource: 'deals', rows: [{ id: 3, name: 'Renamed', version: 2 }] }));
    expect(state.items[2]).toEqual({ id: 3, name: 'Renamed', version: 2 });
    expect(state.items[0]).toEqual({ id: 1, name: 'Deal 1' });
  });
});
