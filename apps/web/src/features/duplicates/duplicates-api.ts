import type { DismissPair, DuplicatesPage, MergeBody, MergeResult } from '@data-platform/shared/duplicates';
import { api } from '../../store/api.ts';
import { queryString } from '../../store/http.ts';

/** Pairs a page asks for at most. */
export const PAIRS_SHOWN = 20;

/**
 * Likely duplicates of a resource (`GET /{resource}/duplicates`), a page at a
 * time by cursor ("Look further"), "Not duplicates" and the merge. The
 * records a merge changes live in the resource's own data area, which the
 * screen refreshes itself (duplicates-page.tsx).
 */
const duplicatesApi = api.injectEndpoints({
  endpoints: (build) => ({
    duplicates: build.infiniteQuery<DuplicatesPage, string, string | null>({
      infiniteQueryOptions: { initialPageParam: null, getNextPageParam: (last) => last.nextCursor },
      query: ({ queryArg: resource, pageParam }) => ({
        path: `/${resource}/duplicates?${queryString({ limit: PAIRS_SHOWN, ...(pageParam ? { cursor: pageParam } : {}) })}`,
      }),
    }),
    dismissDuplicate: build.mutation<void, DismissPair & { resource: string }>({
      query: ({ resource, ids }) => ({ path: `/${resource}/duplicates/dismiss`, method: 'POST', body: { ids } }),
    }),
    mergeRecords: build.mutation<MergeResult, MergeBody & { resource: string }>({
      query: ({ resource, ...body }) => ({ path: `/${resource}/merge`, method: 'POST', body }),
    }),
  }),
});

export const { useDuplicatesInfiniteQuery, useDismissDuplicateMutation, useMergeRecordsMutation } = duplicatesApi;
