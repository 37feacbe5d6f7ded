/**
 * A fund's performance at an as-of date from its cash flows and its NAV at
 * that date: paid-in, distributed, DPI, RVPI, TVPI, PIC, net IRR, and against
 * a public index Kaplan–Schoar PME, Long–Nickels PME, PME+ and Direct Alpha.
 * Pure TypeScript with no dependency (the screens and the API compute with the
 * same code). Every metric is `{ value }`, or `{ value: null, reason, message }`
 * when it is not defined.
 *
 * Index level at a date: the last level on or before that date, inside the
 * series' span (a flow on a weekend or holiday takes the previous close, as
 * index providers publish them). A date before the first level or after the
 * last one has no level: the index metrics are then null with the date named.
 */
import { type DatedFlow, dayNumber, type RateAnswer, type RateReason, solveRate, xirr } from './rate.ts';

export interface IndexLevel {
  /** YYYY-MM-DD */
  date: string;
  level: number;
}

export type MetricReason =
  | RateReason
  | 'nothing_paid_in'
  | 'no_commitment'
  | 'no_index'
  | 'index_not_covering'
  | 'no_contributions'
  | 'no_distributions'
  | 'undefined_input';

export interface Metric {
  value: number | null;
  reason?: MetricReason;
  /** In English: why the value is null, or how to read it. */
  message?: string;
}

/** A rate of return: annualised over a year or more, the rate over the period under a year (GIPS). */
export interface RateMetric extends Metric {
  annualised: boolean;
  /** Days from the first flow to the as-of date. */
  days: number;
  /** Every rate found when the flows change sign more than once (as reported: annual, or over the period). */
  roots?: number[];
}

export interface DirectAlphaMetric extends RateMetric {
  /** The IRR of the flows compounded by the index (discrete); `value` is ln(1 + this), as Gredil, Griffiths and Stucke define it. */
  discrete: number | null;
}

export interface FundMetrics {
  asOf: string;
  paidIn: Metric;
  distributed: Metric;
  nav: Metric;
  dpi: Metric;
  rvpi: Metric;
  tvpi: Metric;
  /** Paid-in over committed capital. */
  pic: Metric;
  irr: RateMetric;
  ksPme: Metric;
  lnPme: { irr: RateMetric; spread: Metric; nav: Metric };
  pmePlus: { irr: RateMetric; lambda: Metric };
  directAlpha: DirectAlphaMetric;
}

export interface FundMetricsInput {
  flows: readonly DatedFlow[];
  /** The NAV at the as-of date; its date is the as-of date. */
  nav: DatedFlow;
  index?: readonly IndexLevel[];
  committed?: number;
}

const undefinedMetric = (reason: MetricReason, message: string): Metric => ({ value: null, reason, message });

/** Days under which a rate of return is not annualised (GIPS: periods under a year). */
const YEAR_DAYS = 365;

/**
 * The XIRR of flows ending at the as-of date, as reported: annual over a year
 * or more, else the rate over the period ((1 + annual)^(days/365) − 1).
 */
function rateOf(flows: readonly DatedFlow[], asOf: string): RateMetric {
  const first = Math.min(...flows.map(({ date }) => dayNumber(date)));
  return reportedRate(xirr(flows), dayNumber(asOf) - first);
}

/**
 * `rateOf` for flows whose dates are already day numbers (all valid), the
 * as-of day among them: the same times in years, the same answer.
 */
function rateOfDays(days: readonly number[], amounts: readonly number[], asOfDay: number): RateMetric {
  const start = Math.min(...days);
  const timed = amounts.map((amount, i) => ({ time: ((days[i] as number) - start) / 365, amount }));
  return reportedRate(solveRate(timed), asOfDay - start);
}

/** A rate as reported over `days`: annual over a year or more, else over the period. */
function reportedRate(answer: RateAnswer, days: number): RateMetric {
  const annualised = days >= YEAR_DAYS;
  const reported = (annual: number) => (annualised ? annual : Math.expm1(Math.log1p(annual) * (days / 365)));
  const metric: RateMetric = { value: answer.value === null ? null : reported(answer.value), annualised, days };
  if (answer.reason) metric.reason = answer.reason;
  const notes = [
    answer.message,
    annualised ? undefined : `Over ${days} days, under a year: the rate over the period, not annualised (GIPS)`,
  ].filter(Boolean);
  if (notes.length > 0) metric.message = notes.join('. ');
  if (answer.roots) metric.roots = answer.roots.map(reported);
  return metric;
}

/** The level of an index at a date: the last on or before it within the series' span, or why there is none. */
export function levelAt(index: readonly IndexLevel[], date: string): number | string {
  const sorted = sortedIndex(index);
  return levelIn(sorted, date);
}

export function sortedIndex(index: readonly IndexLevel[]): { day: number; date: string; level: number }[] {
  return index.map(({ date, level }) => ({ day: dayNumber(date), date, level })).sort((a, b) => a.day - b.day);
}

/** An index's levels with their day numbers, by day: sorted once for many dates (the quarterly series). */
export type SortedIndex = readonly { day: number; date: string; level: number }[];

function levelIn(sorted: SortedIndex, date: string, day = dayNumber(date)): number | string {
  const first = sorted[0];
  const last = sorted.at(-1);
  if (!first || !last) return 'The index has no levels';
  if (day < first.day) return `The index starts on ${first.date}, after the flow of ${date}`;
  if (day > last.day) return `The index ends on ${last.date}, before ${date}`;
  let low = 0;
  let high = sorted.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((sorted[middle] as { day: number }).day <= day) low = middle;
    else high = middle - 1;
  }
  return (sorted[low] as { level: number }).level;
}

const ratio = (numerator: number, denominator: number, reason: MetricReason, message: string): Metric =>
  denominator > 0 ? { value: numerator / denominator } : undefinedMetric(reason, message);

function spreadOf(fund: RateMetric, benchmark: RateMetric, name: string): Metric {
  if (fund.value === null) return undefinedMetric('undefined_input', `The fund's IRR is not defined`);
  if (benchmark.value === null) return undefinedMetric('undefined_input', `The ${name} IRR is not defined`);
  return { value: fund.value - benchmark.value };
}

/** Every metric of a fund at the NAV's date; flows after that date are not counted. */
export function fundMetrics({ flows: allFlows, nav, index, committed }: FundMetricsInput): FundMetrics {
  const asOf = nav.date;
  const asOfDay = dayNumber(asOf);
  const flows = allFlows.filter(({ date }) => dayNumber(date) <= asOfDay);
  let paidIn = 0;
  let distributed = 0;
  for (const { amount } of flows) {
    if (amount < 0) paidIn -= amount;
    else distributed += amount;
  }
  const navValue = nav.amount;
  const nothingPaid = 'Nothing was paid in: the multiples divide by paid-in capital';
  const withNav = [...flows, { date: asOf, amount: navValue }];
  const irr = rateOf(withNav, asOf);
  const metrics: FundMetrics = {
    asOf,
    paidIn: { value: paidIn },
    distributed: { value: distributed },
    nav: { value: navValue },
    dpi: ratio(distributed, paidIn, 'nothing_paid_in', nothingPaid),
    rvpi: ratio(navValue, paidIn, 'nothing_paid_in', nothingPaid),
    tvpi: ratio(distributed + navValue, paidIn, 'nothing_paid_in', nothingPaid),
    pic:
      committed === undefined
        ? undefinedMetric('no_commitment', 'No commitment was given')
        : ratio(paidIn, committed, 'no_commitment', 'The commitment is not above zero'),
    irr,
    ...indexMetrics(flows, nav, irr, index),
  };
  return metrics;
}

type IndexMetrics = Pick<FundMetrics, 'ksPme' | 'lnPme' | 'pmePlus' | 'directAlpha'>;

/** A flow with its date as a day number (dayNumber). */
export interface DayFlow {
  date: string;
  day: number;
  amount: number;
}

/**
 * Each flow's growth factor to the as-of date in the index, I(T) / I(t), the
 * contributions and distributions so grown, and Kaplan–Schoar's PME; or why
 * the index does not cover a date.
 */
function grownByIndex(
  flows: readonly DayFlow[],
  nav: DatedFlow,
  asOfDay: number,
  sorted: SortedIndex,
): { growth: number[]; contributionsGrown: number; distributionsGrown: number; ksPme: Metric } | string {
  const finalLevel = levelIn(sorted, nav.date, asOfDay);
  if (typeof finalLevel === 'string') return finalLevel;
  const growth: number[] = [];
  for (const { date, day } of flows) {
    const level = levelIn(sorted, date, day);
    if (typeof level === 'string') return level;
    growth.push(finalLevel / level);
  }
  let contributionsGrown = 0;
  let distributionsGrown = 0;
  flows.forEach(({ amount }, i) => {
    if (amount < 0) contributionsGrown -= amount * (growth[i] as number);
    else distributionsGrown += amount * (growth[i] as number);
  });
  // Kaplan–Schoar: distributions and NAV over contributions, each grown by the index to the as-of date.
  const ksPme = ratio(
    distributionsGrown + nav.amount,
    contributionsGrown,
    'no_contributions',
    'There are no contributions to compare with',
  );
  return { growth, contributionsGrown, distributionsGrown, ksPme };
}

/**
 * Direct Alpha (Gredil, Griffiths & Stucke 2014) from `discrete`, the IRR a of the flows compounded by the
 * index to the as-of date, the NAV last: alpha = ln(1 + a), continuously compounded per year.
 */
function directAlphaOf(discrete: RateMetric): DirectAlphaMetric {
  const directAlpha: DirectAlphaMetric = {
    ...discrete,
    value: discrete.value === null ? null : Math.log1p(discrete.value),
    discrete: discrete.value,
  };
  if (discrete.roots) directAlpha.roots = discrete.roots.map(Math.log1p);
  return directAlpha;
}

function indexMetrics(
  flows: readonly DatedFlow[],
  nav: DatedFlow,
  fundIrr: RateMetric,
  index: readonly IndexLevel[] | undefined,
): IndexMetrics {
  const asOf = nav.date;
  const days = fundIrr.days;
  const annualised = fundIrr.annualised;
  const allNull = (reason: MetricReason, message: string): IndexMetrics => {
    const metric = undefinedMetric(reason, message);
    const rate: RateMetric = { ...metric, annualised, days };
    return {
      ksPme: metric,
      lnPme: { irr: rate, spread: metric, nav: metric },
      pmePlus: { irr: rate, lambda: metric },
      directAlpha: { ...rate, discrete: null },
    };
  };
  if (!index || index.length === 0) return allNull('no_index', 'No index was given');
  const sorted = sortedIndex(index);
  const grown = grownByIndex(
    flows.map(({ date, amount }) => ({ date, day: dayNumber(date), amount })),
    nav,
    dayNumber(asOf),
    sorted,
  );
  if (typeof grown === 'string') return allNull('index_not_covering', grown);
  const { growth, contributionsGrown, distributionsGrown, ksPme } = grown;
  const compounded = flows.map(({ date, amount }, i) => ({ date, amount: amount * (growth[i] as number) }));
  const directAlpha = directAlphaOf(rateOf([...compounded, { date: asOf, amount: nav.amount }], asOf));

  // Long–Nickels (ICM): the same flows in and out of the index; what is left at the as-of date is the index NAV.
  const lnNav = contributionsGrown - distributionsGrown;
  const lnIrr = rateOf([...flows, { date: asOf, amount: lnNav }], asOf);
  if (lnNav < 0) {
    const short = `The index position ends short (${lnNav.toFixed(2)}): the fund distributed more than the index would have held, a known limit of Long–Nickels`;
    lnIrr.message = lnIrr.message ? `${short}. ${lnIrr.message}` : short;
  }

  // PME+ (Rouvinez): distributions scaled by lambda so that the index NAV equals the fund's NAV.
  let pmePlus: IndexMetrics['pmePlus'];
  if (distributionsGrown > 0) {
    const lambda = (contributionsGrown - nav.amount) / distributionsGrown;
    const scaled = flows.map(({ date, amount }) => ({ date, amount: amount > 0 ? amount * lambda : amount }));
    const plusIrr = rateOf([...scaled, { date: asOf, amount: nav.amount }], asOf);
    const lambdaMetric: Metric = { value: lambda };
    if (lambda < 0) {
      lambdaMetric.message =
        'Below zero: the fund NAV exceeds the contributions grown by the index, so the index would have to take money back';
    }
    pmePlus = { irr: plusIrr, lambda: lambdaMetric };
  } else {
    const metric = undefinedMetric('no_distributions', 'There are no distributions to scale');
    pmePlus = { irr: { ...metric, annualised, days }, lambda: metric };
  }

  return {
    ksPme,
    lnPme: {
      irr: lnIrr,
      spread: spreadOf(fundIrr, lnIrr, 'Long–Nickels'),
      nav: { value: lnNav },
    },
    pmePlus,
    directAlpha,
  };
}

/** What each point of the quarterly series shows (fund-series.ts): the multiples, the IRR and, with an index, KS-PME and Direct Alpha. */
export type SeriesMetrics = Pick<FundMetrics, 'paidIn' | 'distributed' | 'nav' | 'dpi' | 'rvpi' | 'tvpi' | 'irr'> &
  Partial<Pick<FundMetrics, 'ksPme' | 'directAlpha'>>;

/**
 * `fundMetrics` cut to what the quarterly series shows, for many as-of dates:
 * the flows' days already known (valid dates, all on or before the as-of
 * day), the index sorted once. The same values as `fundMetrics` (tested on
 * random funds), without solving the Long–Nickels and PME+ rates nobody
 * reads there and without parsing a date again.
 */
export function seriesMetrics(
  flows: readonly DayFlow[],
  nav: DatedFlow,
  asOfDay: number,
  index: SortedIndex | undefined,
): SeriesMetrics {
  let paidIn = 0;
  let distributed = 0;
  for (const { amount } of flows) {
    if (amount < 0) paidIn -= amount;
    else distributed += amount;
  }
  const navValue = nav.amount;
  const nothingPaid = 'Nothing was paid in: the multiples divide by paid-in capital';
  const days = flows.map(({ day }) => day);
  days.push(asOfDay);
  const amounts = flows.map(({ amount }) => amount);
  amounts.push(navValue);
  const irr = rateOfDays(days, amounts, asOfDay);
  const metrics: SeriesMetrics = {
    paidIn: { value: paidIn },
    distributed: { value: distributed },
    nav: { value: navValue },
    dpi: ratio(distributed, paidIn, 'nothing_paid_in', nothingPaid),
    rvpi: ratio(navValue, paidIn, 'nothing_paid_in', nothingPaid),
    tvpi: ratio(distributed + navValue, paidIn, 'nothing_paid_in', nothingPaid),
    irr,
  };
  if (!index) return metrics;
  const allNull = (reason: MetricReason, message: string): SeriesMetrics => {
    const metric = undefinedMetric(reason, message);
    const rate: RateMetric = { ...metric, annualised: irr.annualised, days: irr.days };
    return { ...metrics, ksPme: metric, directAlpha: { ...rate, discrete: null } };
  };
  if (index.length === 0) return allNull('no_index', 'No index was given');
  const grown = grownByIndex(flows, nav, asOfDay, index);
  if (typeof grown === 'string') return allNull('index_not_covering', grown);
  const compounded = flows.map(({ amount }, i) => amount * (grown.growth[i] as number));
  compounded.push(navValue);
  metrics.ksPme = grown.ksPme;
  metrics.directAlpha = directAlphaOf(rateOfDays(days, compounded, asOfDay));
  return metrics;
}
