import { describe, expect, it } from 'vitest';
import {
  addLayout,
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
});
