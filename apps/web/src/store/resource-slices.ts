import type { ListResponse } from '@data-platform/shared/query/list-query';
import { createAction, createSlice, freeze, original, type Reducer } from '@reduxjs/toolkit';
import { COUNTRIES_PAGE_SIZE } from '../constants.ts';
import { logout } from './auth-slice.ts';
import { apiRequest, queryString, toFailure } from './http.ts';
import { createApiThunk, type TokenState } from './thunk.ts';

/** The record data areas of the spec, one per resource, all of the same shape. */
export const resourceAreas = [
  'companies',
  'entityFieldTypes',
  'customFields',
  'customFieldGroups',
  'countries',
  'currencies',
  'funds',
  'contacts',
  'users',
  'contactCompanies',
  'contactFunds',
  'firms',
  'deals',
  'contactDeals',
  'dealCompanies',
  'files',
  'notes',
  'investors',
  'contactInvestors',
  'dealInvestors',
  'fundPerformances',
] as const;
export type ResourceArea = (typeof resourceAreas)[number];

export function isResourceArea(name: string): name is ResourceArea {
  return (resourceAreas as readonly string[]).includes(name);
}

/** A row as the API answers it: `id` plus what was selected and joined. */
export type Row = { id: number } & Record<string, unknown>;

/** The rows of a resource loaded so far, for one query, page after page. */
export interface ResourceState {
  items: Row[];
  total: number | null;
  totalExact: boolean;
  nextCursor: string | null;
  status: 'idle' | 'loading' | 'loaded' | 'failed';
  error: string | null;
  /** The query string the items answer. */
  query: string | null;
  /** The latest request; answers of older ones are dropped. */
  requestId: string | null;
}

export const initialResourceState: ResourceState = {
  items: [],
  total: null,
  totalExact: true,
  nextCursor: null,
  status: 'idle',
  error: null,
  query: null,
  requestId: null,
};

export interface GetAllArgs {
  resource: ResourceArea;
  /** List parameters (`select`, `join`, `filter[x][op]`, `sort`, `page`, `pageSize`), in order. */
  query: [string, string][];
  /** Continue after the last loaded row (Load More...). */
  cursor?: string;
  /** Only when nothing was loaded or asked for yet. */
  once?: boolean;
}

/** The generic get-all of a resource: one page of `GET /api/v1/{resource}`. */
export const getAll = createApiThunk(
  'resources/getAll',
  async ({ resource, query, cursor }: GetAllArgs, { getState, rejectWithValue, signal }) => {
    const search = queryString(cursor ? [...query, ['cursor', cursor]] : query);
    try {
      return await apiRequest<ListResponse<Row>>(`/api/v1/${resource}${search ? `?${search}` : ''}`, {
        token: getState().auth.token,
        signal,
      });
    } catch (error) {
      return rejectWithValue(toFailure(error));
    }
  },
  {
    condition: ({ resource, once }, { getState }) =>
      !once || (getState() as TokenState & Record<ResourceArea, ResourceState>)[resource].status === 'idle',
  },
);

/** Rows deleted on the server: they leave the loaded list. */
export const rowsRemoved = createAction<{ resource: ResourceArea; ids: number[] }>('resources/rowsRemoved');
/** Rows changed on the server: their new values replace the loaded ones. */
export const rowsChanged = createAction<{ resource: ResourceArea; rows: Row[] }>('resources/rowsChanged');

/** The countries with their states, fetched once per session. */
export const loadCountries = () =>
  getAll({
    resource: 'countries',
    query: [
      ['join', 'states(id,name)'],
      ['page', '1'],
      ['pageSize', String(COUNTRIES_PAGE_SIZE)],
      ['select', 'name,phoneCode,emoji,createdAt'],
    ],
    once: true,
  });

function resourceSlice(name: ResourceArea) {
  const mine = (arg: GetAllArgs) => arg.resource === name;
  return createSlice({
    name,
    initialState: initialResourceState,
    reducers: {},
    extraReducers: (builder) => {
      builder
        .addCase(getAll.pending, (state, { meta }) => {
          if (!mine(meta.arg)) return;
          const query = queryString(meta.arg.query);
          if (!meta.arg.cursor && state.query !== query) {
            state.items = [];
            state.total = null;
            state.nextCursor = null;
          }
          state.query = query;
          state.status = 'loading';
          state.error = null;
          state.requestId = meta.requestId;
        })
        .addCase(getAll.fulfilled, (state, { meta, payload }) => {
          if (!mine(meta.arg) || meta.requestId !== state.requestId) return;
          if (meta.arg.cursor) {
            // A new frozen array, not a push on the draft: immer would then visit every row already loaded
            // (100,000 on a long list) at each page to finalize and freeze it; frozen values it leaves as they are.
            const items = (original(state.items) ?? []).concat(freeze(payload.data, true));
            state.items = Object.freeze(items) as Row[];
          } else state.items = payload.data;
          state.total = payload.total;
          state.totalExact = payload.totalExact;
          state.nextCursor = payload.nextCursor;
          state.status = 'loaded';
        })
        .addCase(getAll.rejected, (state, { meta, payload, error }) => {
          if (!mine(meta.arg) || meta.requestId !== state.requestId) return;
          state.status = 'failed';
          state.error = payload?.message ?? error.message ?? 'Unknown error';
        })
        .addCase(rowsRemoved, (state, { payload }) => {
          if (payload.resource !== name) return;
          const gone = new Set(payload.ids);
          // Read the plain rows, not drafts of each of them.
          state.items = (original(state.items) ?? []).filter((row) => !gone.has(row.id));
          if (state.total !== null && state.totalExact) state.total = Math.max(0, state.total - payload.ids.length);
        })
        .addCase(rowsChanged, (state, { payload }) => {
          if (payload.resource !== name) return;
          const changed = new Map(payload.rows.map((row) => [row.id, row]));
          (original(state.items) ?? []).forEach((row, index) => {
            const update = changed.get(row.id);
            if (update) state.items[index] = { ...row, ...update };
          });
        })
        // Another user may sign in next: nothing of this session stays.
        .addCase(logout, () => initialResourceState);
    },
  });
}

export const resourceReducers = Object.fromEntries(
  resourceAreas.map((name) => [name, resourceSlice(name).reducer]),
) as Record<ResourceArea, Reducer<ResourceState>>;
