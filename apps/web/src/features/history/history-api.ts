import type { HistoryPage, HistorySettings, RestoredRecord } from '@data-platform/shared/history';
import { api } from '../../store/api.ts';
import { queryString } from '../../store/http.ts';
import type { Row } from '../../store/resource-slices.ts';

/** Entries the timeline shows at first and adds with each "Load More...". */
export const HISTORY_SHOWN = 10;

interface RecordKey {
  resource: string;
  id: number;
}

/**
 * A record's history (`GET /{resource}/{id}/history`), a keyset page at a
 * time, and its restores. Kept in the account screens' area beside recent
 * activity; a restore also changes the record, whose data area the timeline
 * refreshes itself (history-timeline.tsx).
 */
const historyApi = api.injectEndpoints({
  endpoints: (build) => ({
    recordHistory: build.infiniteQuery<HistoryPage, RecordKey, string | null>({
      infiniteQueryOptions: { initialPageParam: null, getNextPageParam: (last) => last.nextCursor },
      query: ({ queryArg: { resource, id }, pageParam }) => ({
        path: `/${resource}/${id}/history?${queryString({ limit: HISTORY_SHOWN, ...(pageParam ? { cursor: pageParam } : {}) })}`,
      }),
    }),
    restoreField: build.mutation<Row, RecordKey & { entryId: number; field: string; version: number }>({
      query: ({ resource, id, entryId, field, version }) => ({
        path: `/${resource}/${id}/history/${entryId}/restore`,
        method: 'POST',
        body: { field },
        headers: { 'if-match': String(version) },
      }),
    }),
    restoreRecord: build.mutation<RestoredRecord, RecordKey>({
      query: ({ resource, id }) => ({ path: `/${resource}/${id}/restore`, method: 'POST', body: {} }),
    }),
    historySettings: build.query<HistorySettings, void>({ query: () => ({ path: '/history/settings' }) }),
    saveHistorySettings: build.mutation<HistorySettings, HistorySettings>({
      query: (body) => ({ path: '/history/settings', method: 'PATCH', body }),
      // The screen shows the saved period at once, without reading it again.
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const saved = await queryFulfilled.catch(() => undefined);
        if (saved) dispatch(historyApi.util.upsertQueryData('historySettings', undefined, saved.data));
      },
    }),
  }),
});

export const {
  useRecordHistoryInfiniteQuery,
  useRestoreFieldMutation,
  useRestoreRecordMutation,
  useHistorySettingsQuery,
  useSaveHistorySettingsMutation,
} = historyApi;
