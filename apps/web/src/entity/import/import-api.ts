import type {
  ImportJob,
  ImportJobPage,
  ImportPreview,
  ImportSettings,
  StartImport,
} from '@data-platform/shared/imports';
import { api } from '../../store/api.ts';
import { apiDownload, queryString, saveFile, toFailure } from '../../store/http.ts';

/**
 * The import jobs of the wizard (`/api/v1/imports`, decision 0026): upload a
 * file and preview it, start the job, follow, cancel and undo it, download
 * its bad rows; and the user's past imports, which the Imports screen lists.
 * Kept in the account screens' area: nothing here is a list of records; the
 * wizard reads the imported entity's lists again itself when a job has written.
 */
/** Imports the wizard lists on its first step. */
const RECENT_IMPORTS = 5;
/** Imports the Imports screen shows at first and adds with each "Load More...". */
export const IMPORTS_PAGE = 20;

export const importApi = api.injectEndpoints({
  endpoints: (build) => ({
    uploadImport: build.mutation<ImportPreview, { entity: string; file: File }>({
      query: ({ entity, file }) => {
        const form = new FormData();
        form.append('file', file, file.name);
        return { path: `/imports/uploads?${queryString({ entity })}`, method: 'POST', body: form };
      },
    }),
    previewImport: build.mutation<ImportPreview, ImportSettings>({
      query: (body) => ({ path: '/imports/preview', method: 'POST', body }),
    }),
    startImport: build.mutation<ImportJob, StartImport>({
      query: (body) => ({ path: '/imports', method: 'POST', body }),
    }),
    /** The user's latest imports of an entity (without their problems), newest first. */
    recentImports: build.query<ImportJobPage, string>({
      query: (entity) => ({ path: `/imports?${queryString({ entity, limit: RECENT_IMPORTS })}` }),
      keepUnusedDataFor: 0,
    }),
    /** Every import of the user, of any kind of record, newest first, a page at a time (`before` the last one's id). */
    importHistory: build.infiniteQuery<ImportJobPage, void, number | null>({
      infiniteQueryOptions: { initialPageParam: null, getNextPageParam: (last) => last.nextBefore },
      query: ({ pageParam }) => ({
        path: `/imports?${queryString({ limit: IMPORTS_PAGE, before: pageParam ?? undefined })}`,
      }),
      keepUnusedDataFor: 0,
    }),
    importJob: build.query<ImportJob, number>({
      query: (id) => ({ path: `/imports/${id}` }),
      keepUnusedDataFor: 0,
    }),
    cancelImport: build.mutation<ImportJob, number>({
      query: (id) => ({ path: `/imports/${id}/cancel`, method: 'POST', body: {} }),
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        const answered = await queryFulfilled.catch(() => undefined);
        if (answered) dispatch(importApi.util.upsertQueryData('importJob', id, answered.data));
      },
    }),
    undoImport: build.mutation<ImportJob, number>({
      query: (id) => ({ path: `/imports/${id}/undo`, method: 'POST', body: {} }),
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        const answered = await queryFulfilled.catch(() => undefined);
        if (answered) dispatch(importApi.util.upsertQueryData('importJob', id, answered.data));
      },
    }),
    /** The rows the job did not import, as CSV with an Error column, handed to the browser; answers the file name. */
    downloadBadRows: build.mutation<string, number>({
      queryFn: async (id, { getState, signal }) => {
        try {
          const token = (getState() as { auth: { token: string | null } }).auth.token;
          const file = await apiDownload(`/api/v1/imports/${id}/bad-rows`, { token, signal });
          const name = file.name ?? `import-${id}-bad-rows.csv`;
          saveFile(file.blob, name);
          return { data: name };
        } catch (error) {
          return { error: toFailure(error) };
        }
      },
    }),
  }),
});

export const {
  useUploadImportMutation,
  usePreviewImportMutation,
  useStartImportMutation,
  useImportJobQuery,
  useRecentImportsQuery,
  useImportHistoryInfiniteQuery,
  useCancelImportMutation,
  useUndoImportMutation,
  useDownloadBadRowsMutation,
} = importApi;
