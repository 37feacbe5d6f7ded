import { createSlice } from '@reduxjs/toolkit';
import { loadSummaries } from './configs-slice.ts';

/** The landing page (home dashboard): whether its figures are loading, and whether they arrived once. */
export interface LandsState {
  loading: boolean;
  loaded: boolean;
}

export const initialLandsState: LandsState = { loading: false, loaded: false };

export const landsSlice = createSlice({
  name: 'lands',
  initialState: initialLandsState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(loadSummaries.pending, (state) => {
        state.loading = true;
      })
      .addCase(loadSummaries.fulfilled, (state) => {
        state.loading = false;
        state.loaded = true;
      })
      .addCase(loadSummaries.rejected, (state) => {
        state.loading = false;
      });
  },
});
