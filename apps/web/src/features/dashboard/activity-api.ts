import type { ActivityPage } from '@data-platform/shared/activity';
import { api } from '../../store/api.ts';
import { queryString } from '../../store/http.ts';

/** Lines the card shows at first and adds with each "Load more". */
export const ACTIVITY_SHOWN = 10;

/**
 * Recent activity (`GET /activity`), a keyset page at a time: the records the
 * signed-in user may read, created, changed, deleted, imported, noted or
 * given a file, newest first. Kept in the account screens' area: the lines
 * belong to no one resource.
 */
const activityApi = api.injectEndpoints({
  endpoints: (build) => ({
    activity: build.infiniteQuery<ActivityPage, void, string | null>({
      infiniteQueryOptions: { initialPageParam: null, getNextPageParam: (last) => last.nextCursor },
      query: ({ pageParam }) => ({
        path: `/activity?${queryString({ limit: ACTIVITY_SHOWN, ...(pageParam ? { before: pageParam } : {}) })}`,
      }),
    }),
  }),
});

export const { useActivityInfiniteQuery } = activityApi;
