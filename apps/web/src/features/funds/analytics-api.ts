import type {
  ComputeAnswer,
  FundComparisonAnswer,
  FundMetricsAnswer,
  PortfolioAnswer,
} from '@data-platform/shared/analytics/fund-metrics-api';
import { queryString } from '../../store/http.ts';
import { resourceApi } from '../../store/resource-slices.ts';
import { announcesWrite } from '../../store/written.ts';

export interface FundMetricsArgs {
  id: number;
  /** YYYY-MM-DD; without it, the fund's latest NAV date. */
  asOf?: string;
  /** A benchmark index's id, for the PME metrics. */
  index?: number;
}

/**
 * The fund analytics endpoints, in the funds data area: they are `List`s of
 * that area, so they are read again whenever it is (a fund, a cash flow or a
 * performance record written: store/invalidation.ts reads the funds area
 * again when an entity it shows is written).
 */
const analyticsApi = resourceApi('funds').injectEndpoints({
  endpoints: (build) => ({
    fundMetrics: build.query<FundMetricsAnswer, FundMetricsArgs>({
      query: ({ id, asOf, index }) => {
        const search = queryString({ asOf, index });
        return { path: `/funds/${id}/metrics${search ? `?${search}` : ''}` };
      },
      providesTags: ['List'],
    }),
    fundComparison: build.query<FundComparisonAnswer, void>({
      query: () => ({ path: '/funds/comparison' }),
      providesTags: ['List'],
    }),
    portfolio: build.query<PortfolioAnswer, void>({
      query: () => ({ path: '/analytics/portfolio' }),
      providesTags: ['List'],
    }),
    /**
     * Writes the fund's quarterly performance records from its flows: the funds area is read again (its metrics,
     * its performance panel), and whatever else shows performance records (written.ts).
     */
    computePerformances: build.mutation<ComputeAnswer, { id: number }>({
      query: ({ id }) => ({ path: `/funds/${id}/performances/compute`, method: 'POST', body: {} }),
      invalidatesTags: ['List', 'Record'],
      onQueryStarted: announcesWrite('fundPerformances'),
    }),
  }),
});

export const { useFundMetricsQuery, useFundComparisonQuery, usePortfolioQuery, useComputePerformancesMutation } =
  analyticsApi;
