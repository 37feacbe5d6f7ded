import type { SearchResult } from '@data-platform/shared/search';
import { api } from '../../store/api.ts';
import { queryString } from '../../store/http.ts';

/**
 * Global search (`GET /search`): every record type the signed-in user may
 * read, grouped by type, best first. Kept in the account screens' area: the
 * results belong to no one resource, and none is kept once the palette stops
 * asking for it.
 */
const searchApi = api.injectEndpoints({
  endpoints: (build) => ({
    search: build.query<SearchResult, { q: string; limit: number }>({
      query: ({ q, limit }) => ({ path: `/search?${queryString({ q, limit })}` }),
      keepUnusedDataFor: 10,
    }),
  }),
});

export const { useLazySearchQuery } = searchApi;
