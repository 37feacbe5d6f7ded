import type { DashboardSummaries, GroupCount } from '@data-platform/shared/summaries';
import { createSlice } from '@reduxjs/toolkit';
import { apiRequest, toFailure } from './http.ts';
import { createApiThunk } from './thunk.ts';

export type { GroupCount };

/** The dashboard figures as the server answers them (the shared type), empty until loaded; each part only when readable. */
export type ConfigSummaries = Partial<DashboardSummaries>;

export interface ConfigsState {
  summaries: ConfigSummaries;
  error: string | null;
}

export const initialConfigsState: ConfigsState = { summaries: {}, error: null };

export const loadSummaries = createApiThunk(
  'configs/loadSummaries',
  async (_arg: undefined, { getState, rejectWithValue }) => {
    try {
      return await apiRequest<ConfigSummaries>('/api/v1/configs/summaries', { token: getState().auth.token });
    } catch (error) {
      return rejectWithValue(toFailure(error));
    }
  },
);

export const configsSlice = createSlice({
  name: 'configs',
  initialState: initialConfigsState,
  reducers: {
    clearSummaries(state) {
      state.summaries = {};
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(loadSummaries.fulfilled, (state, action) => {
        state.summaries = action.payload;
        state.error = null;
      })
      .addCase(loadSummaries.rejected, (state, action) => {
        state.error = action.payload?.message ?? action.error.message ?? 'Unknown error';
      });
  },
});

export const { clearSummaries } = configsSlice.actions;
