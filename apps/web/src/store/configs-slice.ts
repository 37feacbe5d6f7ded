import { createSlice } from '@reduxjs/toolkit';
import { apiRequest, toFailure } from './http.ts';
import { createApiThunk } from './thunk.ts';

export interface GroupCount {
  value: string | null;
  count: number;
}

export interface RecentNote {
  id: number;
  body: string;
  entity: string;
  recordId: number;
  createdAt: string;
  createdBy: { id: number; fullName: string } | null;
}

/** The dashboard figures; each part is present only when the user may read what it counts. */
export interface ConfigSummaries {
  counts?: Record<string, { total: number; totalExact: boolean }>;
  dealsByStage?: GroupCount[];
  investorsByFundraisingStatus?: GroupCount[];
  fundsByStatus?: GroupCount[];
  recentNotes?: RecentNote[];
}

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
