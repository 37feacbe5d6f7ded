import { describe, expect, it } from 'vitest';
import {
  type ConfigSummaries,
  clearSummaries,
  configsSlice,
  initialConfigsState,
  loadSummaries,
} from './configs-slice.ts';
import { initialLandsState, landsSlice } from './lands-slice.ts';

const summaries: ConfigSummaries = {
  counts: { deals: { total: 3, totalExact: true } },
  dealsByStage: [{ value: 'Due diligence', count: 3 }],
};
const failure = { status: 500, code: 'internal', message: 'Database is down', authenticated: true };

describe('configs', () => {
  it('replaces the summaries on success', () => {
    const before = { summaries: { counts: { funds: { total: 1, totalExact: true } } }, error: null };
    expect(configsSlice.reducer(before, loadSummaries.fulfilled(summaries, 'r', undefined))).toEqual({
      summaries,
      error: null,
    });
  });

  it('stores the error on failure', () => {
    const state = configsSlice.reducer(initialConfigsState, loadSummaries.rejected(null, 'r', undefined, failure));
    expect(state.error).toBe('Database is down');
  });

  it('clear empties the summaries', () => {
    expect(configsSlice.reducer({ summaries, error: null }, clearSummaries()).summaries).toEqual({});
  });
});

describe('lands', () => {
  it('is loading while the summaries load, and loaded once they arrive', () => {
    const loading = landsSlice.reducer(initialLandsState, loadSummaries.pending('r', undefined));
    expect(loading).toEqual({ loading: true, loaded: false });
    expect(landsSlice.reducer(loading, loadSummaries.fulfilled(summaries, 'r', undefined))).toEqual({
      loading: false,
      loaded: true,
    });
    expect(landsSlice.reducer(loading, loadSummaries.rejected(null, 'r', undefined, failure))).toEqual({
      loading: false,
      loaded: false,
    });
  });
});
