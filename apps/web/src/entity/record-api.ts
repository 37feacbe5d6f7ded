import type { ListResponse } from '@data-platform/shared/query/list-query';
import { api } from '../store/api.ts';
import { queryString } from '../store/http.ts';
import type { Row } from '../store/resource-slices.ts';

export interface RecordArgs {
  resource: string;
  id: number;
  join?: string[];
}

export interface PageArgs {
  /** `companies`, or `contacts/7/companies` for a relation, `notes` for a record's notes. */
  path: string;
  params: [string, string][];
}

export interface UpdateArgs {
  resource: string;
  id: number;
  version: number;
  body: Record<string, unknown>;
}

const PAGE_SIZE = 10;

const recordTag = (resource: string, id: number) => ({ type: 'Record' as const, id: `${resource}:${id}` });
/** Every record of a resource: what reads a whole resource (custom field definitions) provides. */
export const resourceTag = (resource: string) => ({ type: 'Resource' as const, id: resource });

/**
 * The calls of the record pages, on the app's RTK Query api: failures reach
 * the notifications and a 401 ends the session like every other call. Pages
 * (relations, notes, files) are re-fetched whenever anything is written.
 */
export const recordApi = api.enhanceEndpoints({ addTagTypes: ['Record', 'Pages', 'Resource'] }).injectEndpoints({
  endpoints: (build) => ({
    record: build.query<Row, RecordArgs>({
      query: ({ resource, id, join }) => ({
        path: `/${resource}/${id}${join && join.length > 0 ? `?${queryString([['join', join.join(',')]])}` : ''}`,
      }),
      providesTags: (_result, _error, { resource, id }) => [recordTag(resource, id)],
    }),
    pages: build.infiniteQuery<ListResponse<Row>, PageArgs, string | null>({
      infiniteQueryOptions: { initialPageParam: null, getNextPageParam: (last) => last.nextCursor },
      query: ({ queryArg: { path, params }, pageParam }) => {
        const query: [string, string][] = [...params, ['pageSize', String(PAGE_SIZE)]];
        if (pageParam) query.push(['cursor', pageParam]);
        return { path: `/${path}?${queryString(query)}` };
      },
      providesTags: ['Pages'],
    }),
    search: build.query<Row[], { resource: string; display: string; q: string }>({
      query: ({ resource, display, q }) => ({
        path: `/${resource}?${queryString([
          ['select', display],
          ['pageSize', '20'],
          ...(q ? [['q', q] as [string, string]] : [['sort', display] as [string, string]]),
        ])}`,
      }),
      transformResponse: (answer: ListResponse<Row>) => answer.data,
    }),
    createRecord: build.mutation<Row, { resource: string; body: Record<string, unknown> }>({
      query: ({ resource, body }) => ({ path: `/${resource}`, method: 'POST', body }),
      invalidatesTags: (_result, error, { resource }) => (error ? [] : ['Pages', resourceTag(resource)]),
    }),
    updateRecord: build.mutation<Row, UpdateArgs>({
      query: ({ resource, id, version, body }) => ({
        path: `/${resource}/${id}`,
        method: 'PATCH',
        body,
        headers: { 'if-match': String(version) },
      }),
      invalidatesTags: (_result, error, { resource, id }) =>
        error ? [] : [recordTag(resource, id), 'Pages', resourceTag(resource)],
    }),
    deleteRecord: build.mutation<void, { resource: string; id: number }>({
      query: ({ resource, id }) => ({ path: `/${resource}/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, error, { resource }) => (error ? [] : ['Pages', resourceTag(resource)]),
    }),
  }),
});

export const {
  useRecordQuery,
  useLazyRecordQuery,
  usePagesInfiniteQuery,
  useSearchQuery,
  useCreateRecordMutation,
  useUpdateRecordMutation,
  useDeleteRecordMutation,
} = recordApi;
