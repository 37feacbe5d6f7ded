import type { AggregatesResponse } from '@data-platform/shared/query/aggregates';
import { skipToken } from '@reduxjs/toolkit/query';
import { queryString } from '../store/http.ts';
import { resourceApi } from '../store/resource-slices.ts';

/**
 * The totals of a list (`GET /{resource}/aggregates`), kept in the
 * resource's data area beside its lists and tagged like them (`List`): a
 * write that reads the lists again (here or from another area, see
 * store/invalidation.ts) reads the totals again too.
 */

/** The list parameters the totals take: its filters and search, not its columns, order or pages. */
export function totalsParams(listParams: readonly [string, string][]): [string, string][] {
  return listParams.filter(([key]) => key === 'q' || key.startsWith('filter['));
}

function injectTotals(resource: string) {
  return resourceApi(resource).injectEndpoints({
    endpoints: (build) => ({
      /** `params`: the list's filters and search, then `fields` and `groupBy`. */
      totals: build.query<AggregatesResponse, readonly [string, string][]>({
        query: (params) => ({ path: `/${resource}/aggregates?${queryString([...params])}` }),
        providesTags: ['List'],
      }),
    }),
  });
}

type TotalsApi = ReturnType<typeof injectTotals>;
const injected = new Map<string, TotalsApi>();

function totalsApi(resource: string): TotalsApi {
  let api = injected.get(resource);
  if (!api) {
    api = injectTotals(resource);
    injected.set(resource, api);
  }
  return api;
}

/** The totals of `resource`'s list for `params` (see totalsParams), or nothing while `params` is null. */
export function useTotalsQuery(resource: string, params: readonly [string, string][] | null) {
  return totalsApi(resource).useTotalsQuery(params ?? skipToken);
}
