import type { TFunction } from 'i18next';
import type { Formatters } from '../../i18n/format.ts';

/** A metric as the API answers it: a value, or null with a reason code and an English message. */
export interface MetricLike {
  value: number | null;
  reason?: string;
  message?: string;
}

/** A rate (IRR, Direct Alpha): whether it is annualised, and every root when the flows change sign more than once. */
export interface RateLike extends MetricLike {
  annualised?: boolean;
  days?: number;
  roots?: number[];
}

export type MetricKind = 'money' | 'multiple' | 'rate' | 'ratio';

/** A metric as a screen shows it: its text ("1.25x", "12.4 %", "€1,000", or "—"), and what explains it. */
export interface MetricText {
  text: string;
  /** Why it is not defined (translated), or how to read it ("not annualised"). */
  note?: string;
  defined: boolean;
}

/** The reason codes the screens translate (fund-metrics-api.ts metricReasons); others show the API's message. */
export const knownReasons = [
  'no_flows',
  'no_sign_change',
  'no_root',
  'rate_out_of_range',
  'nothing_paid_in',
  'no_commitment',
  'no_index',
  'index_not_covering',
  'no_contributions',
  'no_distributions',
  'undefined_input',
  'no_nav',
  'invalid_flow',
] as const;

/** The translated reason a metric is not defined: its code's text, else the API's English message. */
export function reasonText(t: TFunction, metric: MetricLike): string {
  if (metric.reason && (knownReasons as readonly string[]).includes(metric.reason)) {
    return t(`funds:reasons.${metric.reason}`);
  }
  return metric.message ?? t('funds:reasons.undefined_input');
}

/** A fraction as a percentage in the reader's language: 0.1234 -> "12.34 %". */
export const percentOf = (format: Formatters, fraction: number) => format.percent(fraction * 100);

/**
 * The text of one metric: money in the fund's currency, a multiple with "x",
 * a rate or ratio as a percentage; "—" with the reason when it is not
 * defined. A rate over less than a year says it is not annualised (GIPS), and
 * one of several roots says which.
 */
export function metricText(
  t: TFunction,
  format: Formatters,
  metric: RateLike,
  kind: MetricKind,
  currency?: string | null,
): MetricText {
  if (metric.value === null || !Number.isFinite(metric.value)) {
    return { text: '—', note: reasonText(t, metric), defined: false };
  }
  const value = metric.value;
  let text: string;
  if (kind === 'money') text = currency ? format.money({ amount: value, currency }) : format.number(value);
  else if (kind === 'multiple') text = format.multiple(value);
  else text = percentOf(format, value);
  const notes: string[] = [];
  if (kind === 'rate' && metric.annualised === false) {
    notes.push(t('funds:notAnnualised', { days: metric.days ?? 0 }));
  }
  if (kind === 'rate' && metric.roots && metric.roots.length > 1) {
    notes.push(t('funds:severalRoots', { roots: metric.roots.map((root) => percentOf(format, root)).join(', ') }));
  }
  return notes.length > 0 ? { text, note: notes.join(' '), defined: true } : { text, defined: true };
}

/** Money written short for a chart's axis: "€1.2M", French "1,2 M€". */
export function compactMoney(language: string, currency: string, amount: number): string {
  return new Intl.NumberFormat(language, {
    style: 'currency',
    currency,
    notation: 'compact',
    maximumFractionDigits: 1,
  }).format(amount);
}
