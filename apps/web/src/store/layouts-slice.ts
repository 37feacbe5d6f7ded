import type { FilterOp } from '@data-platform/shared/fields/field-types';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** One filter condition of a list, as the list grammar writes it (`filter[field][op]=value`). */
export interface FilterCondition {
  field: string;
  op: FilterOp;
  value?: string;
}

/** A saved view of a list, reached at its own path. */
export interface Layout {
  pathId: string;
  customPath: string;
  name: string;
  shows?: string[];
  filters?: FilterCondition[];
  /** `-revenue,name`; empty for the entity's default order. */
  sort?: string;
  q?: string;
}

/** Keyed by the list's root path (`/companies`). */
export interface LayoutsState {
  layouts: Record<string, Layout[]>;
  defaultShows: Record<string, string[]>;
  defaultFilters: Record<string, FilterCondition[]>;
}

export const initialLayoutsState: LayoutsState = { layouts: {}, defaultShows: {}, defaultFilters: {} };

export const layoutsSlice = createSlice({
  name: 'layouts',
  initialState: initialLayoutsState,
  reducers: {
    setDefaultFilters(state, action: PayloadAction<{ rootPath: string; filters: FilterCondition[] }>) {
      state.defaultFilters[action.payload.rootPath] = action.payload.filters;
    },
    setDefaultShows(state, action: PayloadAction<{ rootPath: string; shows: string[] }>) {
      state.defaultShows[action.payload.rootPath] = action.payload.shows;
    },
    addLayout(state, action: PayloadAction<{ rootPath: string; layout: Layout }>) {
      const { rootPath, layout } = action.payload;
      state.layouts[rootPath] = [...(state.layouts[rootPath] ?? []), layout];
    },
    replaceLayout(state, action: PayloadAction<{ rootPath: string; layout: Layout }>) {
      const { rootPath, layout } = action.payload;
      state.layouts[rootPath] = (state.layouts[rootPath] ?? []).map((item) =>
        item.pathId === layout.pathId ? layout : item,
      );
    },
    removeLayout(state, action: PayloadAction<{ rootPath: string; customPath: string }>) {
      const { rootPath, customPath } = action.payload;
      state.layouts[rootPath] = (state.layouts[rootPath] ?? []).filter((item) => item.customPath !== customPath);
    },
  },
});

export const { setDefaultFilters, setDefaultShows, addLayout, replaceLayout, removeLayout } = layoutsSlice.actions;
