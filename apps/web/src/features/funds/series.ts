import type { QuarterPoint } from '@data-platform/shared/analytics/fund-metrics-api';

/** One point of the fund charts: a quarter end with its multiples, rate and J-curve value (null where not defined). */
export interface ChartPoint {
  [key: string]: number | string | null;
  date: string;
  tvpi: number | null;
  dpi: number | null;
  rvpi: number | null;
  irr: number | null;
  netCashFlow: number;
}

/**
 * The quarterly series as chart points: a metric not defined at a quarter
 * (no IRR before the first distribution or NAV) is a gap in its line, never a
 * zero. Points are in date order.
 */
export function quarterPoints(series: readonly QuarterPoint[]): ChartPoint[] {
  return [...series]
    .sort((a, b) => a.date.localeCompare(b.date))
    .map((point) => ({
      date: point.date,
      tvpi: point.tvpi.value,
      dpi: point.dpi.value,
      rvpi: point.rvpi.value,
      irr: point.irr.value,
      netCashFlow: point.netCashFlow,
    }));
}
