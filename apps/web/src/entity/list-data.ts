import { useCallback, useMemo } from 'react';
import { isApiFailure } from '../store/http.ts';
import type { Row } from '../store/resource-slices.ts';
import { useListInfiniteQuery } from './record-api.ts';

const noRows: Row[] = [];

/** The rows of a list screen and how far they are loaded. */
export interface ListData {
  /** Every row loaded so far, page after page. */
  rows: Row[];
  /** The total the first page answered (the list asks for one there only); null when none was asked. */
  total: number | null;
  totalExact: boolean;
  /** True while a page is read (the first, the next, or all of them again after a write). */
  loading: boolean;
  /** More rows after the loaded ones. */
  hasMore: boolean;
  /** True once an answer came and nothing is being read. */
  loaded: boolean;
  error: string | null;
  loadMore: () => void;
  retry: () => void;
}

/**
 * The list screen's rows for its parameters, from the resource's data area:
 * the first page, then Load More... by cursor. Writes anywhere that the
 * resource's rows show invalidate the area, and the loaded pages are read
 * again; nothing here keeps a copy of its own.
 */
export function useListData(resource: string, params: readonly [string, string][]): ListData {
  const list = useListInfiniteQuery({ resource, params });
  // The answer for these parameters only: another search's rows do not stay on screen while this one loads.
  const { currentData: data, isFetching, isError, error, hasNextPage, fetchNextPage, refetch } = list;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetching) void fetchNextPage();
  }, [hasNextPage, isFetching, fetchNextPage]);
  const retry = useCallback(() => void refetch(), [refetch]);
  const rows = useMemo(() => (data ? data.pages.flatMap((page) => page.data) : noRows), [data]);
  const first = data?.pages[0];
  return {
    rows,
    total: first?.total ?? null,
    totalExact: first?.totalExact ?? true,
    loading: isFetching,
    hasMore: hasNextPage,
    loaded: data !== undefined && !isFetching,
    error: isError ? (isApiFailure(error) ? error.message : String(error)) : null,
    loadMore,
    retry,
  };
}
