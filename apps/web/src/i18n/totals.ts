import type { TFunction } from 'i18next';
import type { Formatters } from './format.ts';

/**
 * "1,234" for a counted total, "≈ 1.2M" for the planner's estimate (what a
 * list asking `count=estimated` answers above 10,000 expected rows).
 */
export function formatTotal(total: number, exact: boolean, format: Formatters, t: TFunction): string {
  if (exact) return format.number(total);
  return t('common:totals.estimated', { count: format.compact(total) });
}
