import { skipToken } from '@reduxjs/toolkit/query';
import { isResourceArea, resourceApi, resourceAreas } from '../store/resource-slices.ts';

/** What `GET /{resource}/{id}/{relation}/totals` answers: every related row counted, money summed per currency. */
export interface RelationTotals {
  count: number;
  /** Per field: the sum of each currency (money), or of the number under "". */
  sums: Record<string, Record<string, number>>;
}

interface TotalsArgs {
  id: number;
  relation: string;
}

/**
 * The totals endpoint in a resource's data area, injected once per area: it
 * is a `List` of the area, so it is read again whenever the area's lists are
 * (a link added or removed, a related row written).
 */
function totalsApi(resource: string) {
  return resourceApi(resource).injectEndpoints({
    endpoints: (build) => ({
      relationTotals: build.query<RelationTotals, TotalsArgs>({
        query: ({ id, relation }) => ({ path: `/${resource}/${id}/${relation}/totals` }),
        providesTags: ['List'],
      }),
    }),
  });
}

const injected = new Map<string, ReturnType<typeof totalsApi>>();
const areaTotals = (resource: string) => {
  let api = injected.get(resource);
  if (!api) {
    api = totalsApi(resource);
    injected.set(resource, api);
  }
  return api;
};

/** The totals of a record's relation panel, over all of its related rows (not the loaded page). */
export function useRelationTotalsQuery(resource: string, args: TotalsArgs, options?: { skip?: boolean }) {
  const kept = isResourceArea(resource);
  const api = areaTotals(kept ? resource : (resourceAreas[0] as string));
  return api.useRelationTotalsQuery(kept && !options?.skip ? args : skipToken);
}
