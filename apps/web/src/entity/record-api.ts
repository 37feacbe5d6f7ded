import { skipToken } from '@reduxjs/toolkit/query';
import type { ListArgs, RecordArgs } from '../store/resource-api.ts';
import { isResourceArea, resourceApi, resourceAreas } from '../store/resource-slices.ts';

const anyResourceArea = resourceAreas[0] as string;

/**
 * The generic screens' hooks over the data areas: each takes the resource
 * and uses that resource's area (store/resource-api.ts), so a record read, a
 * list and a write share one cache and its tags. A screen's resource does
 * not change while it is mounted (the list page is keyed by resource).
 */

interface QueryOptions {
  skip?: boolean;
  refetchOnMountOrArgChange?: boolean;
}

/**
 * A resource's data area; for one without (`clientState: false`: no screen
 * reads it) any area stands in, its hook skipped, as hooks run on every render.
 */
function areaOf(resource: string) {
  const kept = isResourceArea(resource);
  return { kept, area: resourceApi(kept ? resource : anyResourceArea) };
}

/** One record, with the relations named in `join`. */
export function useRecordQuery(args: RecordArgs & { resource: string }, options?: QueryOptions) {
  const { resource, ...record } = args;
  const { kept, area } = areaOf(resource);
  return area.useRecordQuery(kept ? record : skipToken, options);
}

/** Reads one record when asked (the current version after a refused save). */
export function useLazyRecordQuery(resource: string) {
  return resourceApi(resource).useLazyRecordQuery();
}

/** Pages of a resource's rows (or of the rows related to one record, `under`), Load More... by cursor. */
export function useListInfiniteQuery(args: ListArgs & { resource: string }, options?: QueryOptions) {
  const { resource, ...list } = args;
  const { kept, area } = areaOf(resource);
  return area.useListInfiniteQuery(kept ? list : skipToken, options);
}

/** Records of `resource` whose searchable fields match `q`, named by their `display` field (a reference picker). */
export function useSearchQuery(args: { resource: string; display: string; q: string }, options?: { skip?: boolean }) {
  const { resource, ...search } = args;
  const { kept, area } = areaOf(resource);
  return area.useSearchQuery(kept ? search : skipToken, options);
}

export const useCreateRecordMutation = (resource: string) => resourceApi(resource).useCreateMutation();
export const useUpdateRecordMutation = (resource: string) => resourceApi(resource).useUpdateMutation();
export const useDeleteRecordMutation = (resource: string) => resourceApi(resource).useRemoveMutation();
export const useBulkUpdateMutation = (resource: string) => resourceApi(resource).useBulkUpdateMutation();
export const useBulkDeleteMutation = (resource: string) => resourceApi(resource).useBulkRemoveMutation();
export const useImportMutation = (resource: string) => resourceApi(resource).useImportFileMutation();
export const useExportMutation = (resource: string) => resourceApi(resource).useExportFileMutation();
export const useDownloadContentMutation = (resource: string) => resourceApi(resource).useDownloadContentMutation();
export const useUploadMutation = (resource: string) => resourceApi(resource).useUploadMutation();

/** How many related rows, notes or files a record's panels show before Load More.... */
export const PANEL_PAGE_SIZE = '10';
