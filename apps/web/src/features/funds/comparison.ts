import type { FundComparisonRow } from '@data-platform/shared/analytics/fund-metrics-api';

export const comparisonKeys = ['name', 'vintageYear', 'strategy', 'size', 'tvpi', 'dpi', 'irr', 'quartile'] as const;
export type ComparisonKey = (typeof comparisonKeys)[number];
export type Direction = 'asc' | 'desc';

export interface ComparisonSort {
  key: ComparisonKey;
  direction: Direction;
}

/** The value a column sorts on: null when the fund has none (a metric not defined, no vintage). */
export function sortValue(row: FundComparisonRow, key: ComparisonKey): number | string | null {
  switch (key) {
    case 'name':
      return row.name;
    case 'vintageYear':
      return row.vintageYear;
    case 'strategy':
      return row.strategy;
    case 'size':
      return row.size;
    case 'tvpi':
      return row.tvpi.value;
    case 'dpi':
      return row.dpi.value;
    case 'irr':
      return row.irr.value;
    case 'quartile':
      return row.quartile.value;
  }
}

/**
 * The funds sorted on one column, either way: funds without a value last in
 * both directions (a fund with no TVPI is not the worst one), ties by name.
 * Sizes compare as numbers across currencies only as a way to order them.
 */
export function sortComparison(
  rows: readonly FundComparisonRow[],
  { key, direction }: ComparisonSort,
  collator: Intl.Collator,
): FundComparisonRow[] {
  const sign = direction === 'asc' ? 1 : -1;
  const byName = (a: FundComparisonRow, b: FundComparisonRow) => collator.compare(a.name ?? '', b.name ?? '');
  return [...rows].sort((a, b) => {
    const x = sortValue(a, key);
    const y = sortValue(b, key);
    if (x === null && y === null) return byName(a, b);
    if (x === null) return 1;
    if (y === null) return -1;
    const order = typeof x === 'string' || typeof y === 'string' ? collator.compare(String(x), String(y)) : x - y;
    return order === 0 ? byName(a, b) : sign * order;
  });
}

/** The first direction a column sorts in when picked: the best funds first for metrics, A to Z otherwise. */
export function firstDirection(key: ComparisonKey): Direction {
  return key === 'tvpi' || key === 'dpi' || key === 'irr' || key === 'size' ? 'desc' : 'asc';
}

/** The sort after a click on a column's heading: the other way on the same column, its first way on another. */
export function nextComparisonSort(current: ComparisonSort, key: ComparisonKey): ComparisonSort {
  if (current.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: firstDirection(key) };
}
