import { describe, expect, it } from 'vitest';
import {
  addLayout,
  cacheLayouts,
  forgetServerLayouts,
  initialLayoutsState,
  type Layout,
  layoutsSlice,
  removeLayout,
  replaceLayout,
  setDefaultFilters,
  setDefaultShows,
} from './layouts-slice.ts';

const reduce = layoutsSlice.reducer;
const seed: Layout = { pathId: 'a1', customPath: '/deals/views/seed', name: 'Seed deals' };
const late: Layout = { pathId: 'b2', customPath: '/deals/views/late', name: 'Late stage' };

describe('layouts', () => {
  it('sets the default filters of one root path, leaving the others', () => {
    let state = reduce(initialLayoutsState, setDefaultFilters({ rootPath: '/companies', filters: [] }));
    state = reduce(
      state,
      setDefaultFilters({ rootPath: '/deals', filters: [{ field: 'stage', op: 'eq', value: 'Closing' }] }),
    );
    expect(state.defaultFilters).toEqual({
      '/companies': [],
      '/deals': [{ field: 'stage', op: 'eq', value: 'Closing' }],
    });
  });

  it('sets the shown columns of one root path', () => {
    const state = reduce(initialLayoutsState, setDefaultShows({ rootPath: '/funds', shows: ['name', 'status'] }));
    expect(state.defaultShows).toEqual({ '/funds': ['name', 'status'] });
    expect(reduce(state, setDefaultShows({ rootPath: '/funds', shows: ['name'] })).defaultShows['/funds']).toEqual([
      'name',
    ]);
  });

  it('adds layouts under their root path, in order', () => {
    let state = reduce(initialLayoutsState, addLayout({ rootPath: '/deals', layout: seed }));
    state = reduce(state, addLayout({ rootPath: '/deals', layout: late }));
    expect(state.layouts['/deals']).toEqual([seed, late]);
  });

  it('replaces the layout with the same pathId', () => {
    let state = reduce(initialLayoutsState, addLayout({ rootPath: '/deals', layout: seed }));
    state = reduce(state, addLayout({ rootPath: '/deals', layout: late }));
    const renamed = { ...seed, name: 'Seed and pre-seed', customPath: '/deals/views/early' };
    state = reduce(state, replaceLayout({ rootPath: '/deals', layout: renamed }));
    expect(state.layouts['/deals']).toEqual([renamed, late]);
  });

  it('removes the layout with the customPath', () => {
    let state = reduce(initialLayoutsState, addLayout({ rootPath: '/deals', layout: seed }));
    state = reduce(state, addLayout({ rootPath: '/deals', layout: late }));
    state = reduce(state, removeLayout({ rootPath: '/deals', customPath: '/deals/views/seed' }));
    expect(state.layouts['/deals']).toEqual([late]);
  });

  it("caches the server's views of a list, keeping the local layouts not yet uploaded", () => {
    const server = { id: 7, version: 2, shared: true, mine: true, ownerName: null };
    const uploaded: Layout = { ...seed, pathId: 'view-7', server };
    let state = reduce(initialLayoutsState, addLayout({ rootPath: '/deals', layout: seed }));
    state = reduce(state, addLayout({ rootPath: '/deals', layout: late }));
    // The server holds "seed" now: its copy replaces the local one; "late" is not uploaded yet and stays.
    state = reduce(state, cacheLayouts({ rootPath: '/deals', layouts: [uploaded] }));
    expect(state.layouts['/deals']).toEqual([uploaded, late]);
    // Read again: the server's list replaces the cached one (a view deleted elsewhere leaves).
    state = reduce(state, cacheLayouts({ rootPath: '/deals', layouts: [] }));
    expect(state.layouts['/deals']).toEqual([late]);
  });

  it("forgets the server's views at sign-out, not the local layouts", () => {
    const uploaded: Layout = { ...seed, server: { id: 1, version: 1, shared: false, mine: true, ownerName: null } };
    let state = reduce(initialLayoutsState, cacheLayouts({ rootPath: '/deals', layouts: [uploaded] }));
    state = reduce(state, addLayout({ rootPath: '/deals', layout: late }));
    expect(reduce(state, forgetServerLayouts()).layouts['/deals']).toEqual([late]);
  });
});
