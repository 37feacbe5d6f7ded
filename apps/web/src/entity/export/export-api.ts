import type { ExportFormat } from '@data-platform/shared/export-formats';
import type { ExportJob } from '@data-platform/shared/export-jobs';
import { api } from '../../store/api.ts';
import { apiDownload, queryString, saveFile, toFailure } from '../../store/http.ts';
import { exportBody } from './export-logic.ts';

/**
 * Export jobs (`/api/v1/exports`, decision 0036): start one over the list's
 * parameters, follow and cancel it, list the user's recent ones, download a
 * finished file. Kept in the account screens' area: nothing here is a list
 * of records.
 */

/** Exports the panel lists. */
const RECENT_EXPORTS = 10;

const exportApi = api.injectEndpoints({
  endpoints: (build) => ({
    startExport: build.mutation<
      ExportJob,
      { resource: string; format: ExportFormat; params: readonly [string, string][] }
    >({
      query: ({ resource, format, params }) => ({
        path: `/${resource}/exports`,
        method: 'POST',
        body: exportBody(format, params),
      }),
    }),
    /** The user's latest exports (of every kind of record), newest first. */
    recentExports: build.query<{ data: ExportJob[] }, void>({
      query: () => ({ path: `/exports?${queryString({ limit: RECENT_EXPORTS })}` }),
      keepUnusedDataFor: 0,
    }),
    exportJob: build.query<ExportJob, number>({
      query: (id) => ({ path: `/exports/${id}` }),
      keepUnusedDataFor: 0,
    }),
    cancelExport: build.mutation<ExportJob, number>({
      query: (id) => ({ path: `/exports/${id}/cancel`, method: 'POST', body: {} }),
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        const answered = await queryFulfilled.catch(() => undefined);
        if (answered) dispatch(exportApi.util.upsertQueryData('exportJob', id, answered.data));
      },
    }),
    /** The job's file, handed to the browser under the name the server gives it; answers that name. */
    downloadExport: build.mutation<string, ExportJob>({
      queryFn: async (job, { getState, signal }) => {
        try {
          const token = (getState() as { auth: { token: string | null } }).auth.token;
          const file = await apiDownload(`/api/v1/exports/${job.id}/file`, { token, signal });
          const name = file.name ?? job.fileName;
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
  useStartExportMutation,
  useRecentExportsQuery,
  useExportJobQuery,
  useCancelExportMutation,
  useDownloadExportMutation,
} = exportApi;
