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
  /** Set once the view is stored on the server (`/api/v1/views`); a layout without it is local only, still to upload. */
  server?: ServerLayout;
}

/** What the server says of a saved view beyond its state. */
export interface ServerLayout {
  id: number;
  version: number;
  shared: boolean;
  /** The user owns it: may change, share or delete it. */
  mine: boolean;
  /** Who shared it, when it is someone else's. */
  ownerName: string | null;
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
    /** The server's views of a list, replacing what the cache held of them (local layouts not yet uploaded stay). */
    cacheLayouts(state, action: PayloadAction<{ rootPath: string; layouts: Layout[] }>) {
      const { rootPath, layouts } = action.payload;
      const local = (state.layouts[rootPath] ?? []).filter((item) => !item.server);
      state.layouts[rootPath] = [
        ...layouts,
        ...local.filter((item) => !layouts.some((l) => l.customPath === item.customPath)),
      ];
    },
    /** At sign-out: the views read from the server were the user's; local layouts not yet uploaded stay. */
    forgetServerLayouts(state) {
      for (const [rootPath, layouts] of Object.entries(state.layouts)) {
        state.layouts[rootPath] = layouts.filter((item) => !item.server);
      }
    },
    removeLayout(state, action: PayloadAction<{ rootPath: string; customPath: string }>) {
      const { rootPath, customPath } = action.payload;
      state.layouts[rootPath] = (state.layouts[rootPath] ?? []).filter((item) => item.customPath !== customPath);
    },
  },
});

export const {
  setDefaultFilters,
  setDefaultShows,
  addLayout,
  replaceLayout,
  removeLayout,
  cacheLayouts,
  forgetServerLayouts,
} = layoutsSlice.actions;
