import type { FundComparisonRow } from '@data-platform/shared/analytics/fund-metrics-api';
import { describe, expect, it } from 'vitest';
import { nextComparisonSort, sortComparison } from './comparison.ts';

const row = (id: number, name: string, tvpi: number | null, vintageYear: number | null = 2020): FundComparisonRow => ({
  id,
  name,
  vintageYear,
  strategy: 'Buyout',
  size: id * 100,
  currency: 'USD',
  asOf: '2024-12-31',
  tvpi: { value: tvpi },
  dpi: { value: tvpi === null ? null : tvpi / 2 },
  irr: { value: null, annualised: true, days: 400 },
  quartile: { value: null, peers: 0 },
});

const collator = new Intl.Collator('en', { sensitivity: 'base' });
const names = (rows: FundComparisonRow[]) => rows.map((r) => r.name);

describe('sortComparison', () => {
  const rows = [row(1, 'Beta', 1.2), row(2, 'alpha', null), row(3, 'Gamma', 2.1), row(4, 'Delta', 1.2)];

  it('sorts a metric either way, funds without it last both ways, ties by name', () => {
    expect(names(sortComparison(rows, { key: 'tvpi', direction: 'desc' }, collator))).toEqual([
      'Gamma',
      'Beta',
      'Delta',
      'alpha',
    ]);
    expect(names(sortComparison(rows, { key: 'tvpi', direction: 'asc' }, collator))).toEqual([
      'Beta',
      'Delta',
      'Gamma',
      'alpha',
    ]);
  });

  it('sorts names by the language, not by code point', () => {
    expect(names(sortComparison(rows, { key: 'name', direction: 'asc' }, collator))).toEqual([
      'alpha',
      'Beta',
      'Delta',
      'Gamma',
    ]);
  });

  it('leaves the input as it was', () => {
    sortComparison(rows, { key: 'name', direction: 'desc' }, collator);
    expect(names(rows)).toEqual(['Beta', 'alpha', 'Gamma', 'Delta']);
  });
});

describe('nextComparisonSort', () => {
  it('turns the same column the other way, and starts a metric with the best first', () => {
    expect(nextComparisonSort({ key: 'tvpi', direction: 'desc' }, 'tvpi')).toEqual({ key: 'tvpi', direction: 'asc' });
    expect(nextComparisonSort({ key: 'name', direction: 'asc' }, 'irr')).toEqual({ key: 'irr', direction: 'desc' });
    expect(nextComparisonSort({ key: 'irr', direction: 'desc' }, 'name')).toEqual({ key: 'name', direction: 'asc' });
  });
});
