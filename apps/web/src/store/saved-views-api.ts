import type { CreateView, SavedView, UpdateView } from '@data-platform/shared/saved-views';
import { createApi } from '@reduxjs/toolkit/query/react';
import { baseQuery } from './base-query.ts';
import { queryString } from './http.ts';

/** Which view a change or a deletion is for, at the version last read. */
export type ViewRef = Pick<SavedView, 'id' | 'version' | 'rootPath'>;

/**
 * The saved views of the lists, kept on the server per user and shared with
 * the team (`/api/v1/views`). The persisted layouts slice is their local
 * cache: what was last read, so that a list opens with its views at once.
 */
export const savedViewsApi = createApi({
  reducerPath: 'savedViews',
  baseQuery,
  tagTypes: ['Views'],
  endpoints: (build) => ({
    /** A list's views: the user's own, then those shared with the team. */
    savedViews: build.query<SavedView[], string>({
      query: (rootPath) => ({ path: `/views?${queryString([['rootPath', rootPath]])}` }),
      transformResponse: (answer: { data: SavedView[] }) => answer.data,
      providesTags: (_result, _error, rootPath) => [{ type: 'Views', id: rootPath }],
    }),
    /**
     * The view at `<rootPath>/views/<slug>`: the user's own, else one shared
     * under that slug; null when there is none they may see (the list says
     * so itself, in place of the rows: not a failure to toast).
     */
    savedViewAt: build.query<SavedView | null, { rootPath: string; slug: string }>({
      queryFn: async ({ rootPath, slug }, _api, _extra, query) => {
        const path = `/views/at?${queryString([
          ['rootPath', rootPath],
          ['slug', slug],
        ])}`;
        const answer = await query({ path });
        if (answer.error) return answer.error.status === 404 ? { data: null } : { error: answer.error };
        return { data: answer.data as SavedView };
      },
      providesTags: (_result, _error, { rootPath }) => [{ type: 'Views', id: rootPath }],
    }),
    createSavedView: build.mutation<SavedView, CreateView>({
      query: (body) => ({ path: '/views', method: 'POST', body }),
      invalidatesTags: (_result, _error, { rootPath }) => [{ type: 'Views', id: rootPath }],
    }),
    updateSavedView: build.mutation<SavedView, { view: ViewRef; changes: UpdateView }>({
      query: ({ view, changes }) => ({
        path: `/views/${view.id}`,
        method: 'PATCH',
        body: changes,
        headers: { 'if-match': String(view.version) },
      }),
      invalidatesTags: (_result, _error, { view }) => [{ type: 'Views', id: view.rootPath }],
    }),
    deleteSavedView: build.mutation<null, ViewRef>({
      query: (view) => ({
        path: `/views/${view.id}`,
        method: 'DELETE',
        headers: { 'if-match': String(view.version) },
      }),
      invalidatesTags: (_result, _error, view) => [{ type: 'Views', id: view.rootPath }],
    }),
  }),
});

export const {
  useSavedViewsQuery,
  useSavedViewAtQuery,
  useCreateSavedViewMutation,
  useUpdateSavedViewMutation,
  useDeleteSavedViewMutation,
} = savedViewsApi;
