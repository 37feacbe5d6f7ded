import type { TFunction } from 'i18next';
import type { Formatters } from './format.ts';

/** The API counts exactly up to this many rows; above, its total is an estimate. */
const EXACT_COUNT_CAP = 10_000;

/** "1,234", or for an estimate "10,000+" (the cap was reached) or "≈ 1.2M". */
export function formatTotal(total: number, exact: boolean, format: Formatters, t: TFunction): string {
  if (exact) return format.number(total);
  if (total < EXACT_COUNT_CAP) return t('common:totals.capped', { count: format.number(EXACT_COUNT_CAP) });
  return t('common:totals.estimated', { count: format.compact(total) });
}
