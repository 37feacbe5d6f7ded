/**
 * Rates of return of dated cash flows: XNPV, XIRR (Actual/365, as Excel and
 * LibreOffice Calc compute them) and the periodic IRR. Pure TypeScript with no
 * dependency, so the web app can import it cheaply.
 *
 * The solver never answers wrong: it answers a rate only where the net present
 * value changes sign (kept in a bracket until it is as narrow as the numbers
 * allow), and says why when it cannot:
 * - flows that never change sign have no rate (`no_sign_change`);
 * - one change of sign (after summing flows of the same date) means exactly
 *   one rate in (-100 %, ∞) (Descartes' rule of signs, which holds for real
 *   exponents): it is found by Newton's method kept inside a bracket that
 *   provably holds it, bisecting whenever a Newton step would leave it;
 * - several changes of sign allow several rates (at most as many as changes):
 *   the whole range where a rate can lie (bounded below) is scanned, every
 *   rate found is listed in `roots`, and the one nearest zero is answered,
 *   with a note saying so.
 */

/** A cash flow on a day: contributions (paid in) negative, distributions positive. */
export interface DatedFlow {
  /** YYYY-MM-DD */
  date: string;
  amount: number;
}

/** Why a rate is not defined. */
export type RateReason = 'no_flows' | 'no_sign_change' | 'no_root' | 'rate_out_of_range' | 'invalid_flow';

export interface RateAnswer {
  /** The rate per period (per year for XIRR), or null when no rate is defined. */
  value: number | null;
  reason?: RateReason;
  /** In English: why the value is null, or which of several rates was answered. */
  message?: string;
  /** Every rate found when the flows change sign more than once (ascending). */
  roots?: number[];
  /** How many times the flows change sign (Descartes' bound on the number of rates). */
  signChanges?: number;
}

const DAY_MS = 86_400_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 of a YYYY-MM-DD date, or NaN when it is not a real calendar date. */
export function dayNumber(date: string): number {
  const match = DATE_PATTERN.exec(date);
  if (!match) return Number.NaN;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const time = Date.UTC(year, month - 1, day);
  const back = new Date(time);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) {
    return Number.NaN;
  }
  return time / DAY_MS;
}

/** Whether a text is a real YYYY-MM-DD calendar date. */
export const isCalendarDate = (date: string) => !Number.isNaN(dayNumber(date));

/** A flow at a time: `time` in periods (years for XIRR) from the first flow. */
export interface TimedFlow {
  time: number;
  amount: number;
}

/** Flows of the same time summed, zero sums dropped, in time order, times measured from the first one kept. */
function grouped(flows: readonly TimedFlow[]): TimedFlow[] {
  const sums = new Map<number, number>();
  for (const { time, amount } of flows) sums.set(time, (sums.get(time) ?? 0) + amount);
  const kept = [...sums.entries()]
    .filter(([, amount]) => amount !== 0)
    .sort(([a], [b]) => a - b)
    .map(([time, amount]) => ({ time, amount }));
  const start = kept[0]?.time ?? 0;
  return kept.map(({ time, amount }) => ({ time: time - start, amount }));
}

function signChangesOf(flows: readonly TimedFlow[]): number {
  let changes = 0;
  for (let i = 1; i < flows.length; i++) {
    if (Math.sign((flows[i] as TimedFlow).amount) !== Math.sign((flows[i - 1] as TimedFlow).amount)) changes++;
  }
  return changes;
}

/**
 * The present value at u = ln(1 + rate), times a positive factor that keeps
 * every term at most 1 in size (so no term overflows for any u), and its
 * derivative times the same factor. Same sign and same roots as the NPV.
 */
function scaledValue(flows: readonly TimedFlow[], u: number): { value: number; slope: number } {
  const shift = u < 0 ? (flows.at(-1) as TimedFlow).time : 0;
  let value = 0;
  let slope = 0;
  for (const { time, amount } of flows) {
    const term = amount * Math.exp(-u * (time - shift));
    value += term;
    slope -= time * term;
  }
  // d/du [e^{u·shift} · NPV] = e^{u·shift} · NPV' + shift · e^{u·shift} · NPV
  return { value, slope: slope + shift * value };
}

/**
 * The root of the scaled present value in [lo, hi], where its signs differ:
 * Newton steps, replaced by bisection whenever a step would leave the
 * bracket or not halve it (the bracket always holds a root).
 */
function rootInBracket(flows: readonly TimedFlow[], lo: number, hi: number): number {
  let a = lo;
  let b = hi;
  const signA = Math.sign(scaledValue(flows, a).value);
  let u = (a + b) / 2;
  let lastStep = b - a;
  for (let i = 0; i < 300; i++) {
    const { value, slope } = scaledValue(flows, u);
    if (value === 0) return u;
    if (Math.sign(value) === signA) a = u;
    else b = u;
    const newton = slope === 0 ? Number.NaN : u - value / slope;
    const step = Math.abs(newton - u);
    const next = newton > Math.min(a, b) && newton < Math.max(a, b) && step < lastStep / 2 ? newton : (a + b) / 2;
    lastStep = Math.abs(next - u);
    const tolerance = 2 * Number.EPSILON * Math.max(1, Math.abs(u));
    if (lastStep <= tolerance || Math.abs(b - a) <= tolerance) return next;
    u = next;
  }
  return u;
}

/**
 * Where a rate can lie, as u = ln(1 + rate). For u ≥ 0 every later discount
 * factor is at most the second flow's, so above ln(Σ_{i≥1} |a_i| / |a_0|) / t_1
 * the first flow outweighs all the others together and the NPV has its sign;
 * likewise, for u ≤ 0 (scaled by e^{u t_n}), below
 * −ln(Σ_{i<n} |a_i| / |a_n|) / (t_n − t_{n−1}) the last flow does. Each
 * bound only reaches as far as zero from its side.
 */
function rootRange(flows: readonly TimedFlow[]): { lo: number; hi: number } {
  const first = flows[0] as TimedFlow;
  const last = flows.at(-1) as TimedFlow;
  const second = flows[1] as TimedFlow;
  const beforeLast = flows.at(-2) as TimedFlow;
  let rest = 0;
  for (const flow of flows.slice(1)) rest += Math.abs(flow.amount);
  const hi = Math.max(0, Math.log(rest / Math.abs(first.amount)) / second.time);
  rest = 0;
  for (const flow of flows.slice(0, -1)) rest += Math.abs(flow.amount);
  const lo = Math.min(0, -Math.log(rest / Math.abs(last.amount)) / (last.time - beforeLast.time));
  const margin = 1e-6 + 1e-9 * (hi - lo);
  return { lo: lo - margin, hi: hi + margin };
}

/**
 * Points scanned for the rates of flows that change sign more than once,
 * evenly spaced in w where u = SCAN_SCALE · sinh(w): dense near a rate of
 * zero, sparse towards the ends of the range. Fewer for many flows (the scan
 * costs points × flows), never under MIN_SCAN_POINTS.
 */
const MAX_SCAN_POINTS = 8192;
const MIN_SCAN_POINTS = 1024;
const SCAN_WORK = 1e7;
const SCAN_SCALE = 1e-3;

/**
 * The signs of the scaled NPV and of its slope at many u, each in O(flows)
 * multiplications: the flows are summed from the far end (Horner's rule over
 * the gaps between their times), each gap's discount factor computed once per
 * u. Every factor is at most 1 (from the last flow back for u ≥ 0, from the
 * first forward for u < 0), as in `scaledValue`, whose function this is.
 */
function npvSigns(flows: readonly TimedFlow[], points: readonly number[]): { value: number; slope: number }[] {
  const gapIndex = new Map<number, number>();
  const gaps: number[] = [];
  const gapOf: number[] = [];
  for (let i = 1; i < flows.length; i++) {
    const gap = (flows[i] as TimedFlow).time - (flows[i - 1] as TimedFlow).time;
    // Equal gaps (a day is 1/365 of a year) may differ in the last bit after subtraction: one key for both.
    const key = Math.round(gap * 1e9);
    if (!gapIndex.has(key)) {
      gapIndex.set(key, gapIndex.size);
      gaps.push(gap);
    }
    gapOf.push(gapIndex.get(key) as number);
  }
  const factors = new Float64Array(gaps.length);
  const amounts = Float64Array.from(flows, ({ amount }) => amount);
  const gapAt = Int32Array.from(gapOf);
  const n = amounts.length;
  return points.map((u) => {
    for (let g = 0; g < gaps.length; g++) factors[g] = Math.exp(-Math.abs(u) * (gaps[g] as number));
    let sum: number;
    let slope = 0;
    if (u >= 0) {
      sum = amounts[n - 1] as number;
      for (let i = n - 2; i >= 0; i--) {
        const gap = gapAt[i] as number;
        const factor = factors[gap] as number;
        slope = (slope - sum * (gaps[gap] as number)) * factor;
        sum = sum * factor + (amounts[i] as number);
      }
    } else {
      sum = amounts[0] as number;
      for (let i = 1; i < n; i++) {
        const gap = gapAt[i - 1] as number;
        const factor = factors[gap] as number;
        slope = (slope + sum * (gaps[gap] as number)) * factor;
        sum = sum * factor + (amounts[i] as number);
      }
    }
    return { value: Math.sign(sum), slope: Math.sign(slope) };
  });
}

/** Where the scaled NPV's slope is zero between a and b, whose slopes have opposite signs (bisection). */
function turningPoint(flows: readonly TimedFlow[], a: number, b: number): number {
  const signA = Math.sign(scaledValue(flows, a).slope);
  let [lo, hi] = [a, b];
  for (let i = 0; i < 200 && hi - lo > 2 * Number.EPSILON * Math.max(1, Math.abs(lo)); i++) {
    const middle = (lo + hi) / 2;
    if (Math.sign(scaledValue(flows, middle).slope) === signA) lo = middle;
    else hi = middle;
  }
  return (lo + hi) / 2;
}

/**
 * Every root between lo and hi: where the NPV changes sign between two points
 * of the scan grid, solved in that bracket; and where it does not but its
 * slope does, the turning point between them is checked, so that two roots
 * closer together than the grid's step are found too (Rolle: between two
 * roots the slope is zero). Zero is a grid point, where the scaling changes.
 */
function scanRoots(flows: readonly TimedFlow[], lo: number, hi: number): number[] {
  const count = Math.max(MIN_SCAN_POINTS, Math.min(MAX_SCAN_POINTS, Math.floor(SCAN_WORK / flows.length)));
  const wLo = Math.asinh(lo / SCAN_SCALE);
  const wHi = Math.asinh(hi / SCAN_SCALE);
  const points = Array.from({ length: count + 1 }, (_, i) =>
    i === 0 ? lo : i === count ? hi : SCAN_SCALE * Math.sinh(wLo + ((wHi - wLo) * i) / count),
  );
  const zeroAt = points.findIndex((u) => u >= 0);
  if (zeroAt > 0 && points[zeroAt] !== 0) points.splice(zeroAt, 0, 0);
  const signs = npvSigns(flows, points);
  const roots: number[] = [];
  const direct = (u: number) => Math.sign(scaledValue(flows, u).value);
  const solve = (a: number, b: number) => {
    const root = rootInBracket(flows, a, b);
    if (roots.length === 0 || root !== roots.at(-1)) roots.push(root);
  };
  for (let i = 1; i < points.length; i++) {
    const before = signs[i - 1] as { value: number; slope: number };
    const after = signs[i] as { value: number; slope: number };
    let [a, b] = [points[i - 1] as number, points[i] as number];
    if (after.value === 0) roots.push(b);
    if (before.value === 0 || after.value === 0) continue;
    if (before.value !== after.value) {
      // The bracket as the direct sum sees it (the two agree but for rounding at a root's edge).
      if (direct(a) === direct(b)) {
        [a, b] = [points[Math.max(0, i - 2)] as number, points[Math.min(points.length - 1, i + 1)] as number];
        if (direct(a) === direct(b)) continue;
      }
      solve(a, b);
    } else if (before.slope !== 0 && after.slope !== 0 && before.slope !== after.slope) {
      const turn = turningPoint(flows, a, b);
      const atTurn = direct(turn);
      if (atTurn === 0) roots.push(turn);
      else if (atTurn !== before.value) {
        solve(a, turn);
        solve(turn, b);
      }
    }
  }
  return roots;
}

/**
 * The rate r at which Σ amount · (1 + r)^(−time) = 0, for flows at times in
 * periods (any origin). See the module comment for what is answered when.
 */
export function solveRate(flows: readonly TimedFlow[]): RateAnswer {
  if (flows.some(({ time, amount }) => !Number.isFinite(time) || !Number.isFinite(amount))) {
    return { value: null, reason: 'invalid_flow', message: 'Every flow needs a finite time and amount' };
  }
  const kept = grouped(flows);
  if (kept.length === 0) return { value: null, reason: 'no_flows', message: 'There are no flows other than zero' };
  const signChanges = signChangesOf(kept);
  if (signChanges === 0) {
    return {
      value: null,
      reason: 'no_sign_change',
      message: `The flows (summed per date) are all ${(kept[0] as TimedFlow).amount < 0 ? 'contributions' : 'distributions'}: with no change of sign no rate makes their present value zero`,
      signChanges,
    };
  }
  const { lo, hi } = rootRange(kept);
  const roots: number[] = [];
  if (signChanges === 1) {
    // Exactly one root, and the NPV has opposite signs beyond each end of the range.
    roots.push(rootInBracket(kept, lo, hi));
  } else {
    roots.push(...scanRoots(kept, lo, hi));
  }
  const rates = roots.map(Math.expm1).filter((rate) => Number.isFinite(rate) && rate > -1);
  if (rates.length === 0) {
    return roots.length > 0
      ? {
          value: null,
          reason: 'rate_out_of_range',
          message: 'The rate that makes the present value zero is too large to be represented',
          signChanges,
        }
      : {
          value: null,
          reason: 'no_root',
          message: `The flows change sign ${signChanges} times, yet no rate above -100 % makes their present value zero`,
          signChanges,
        };
  }
  if (signChanges === 1) return { value: rates[0] as number, signChanges };
  const nearest = rates.reduce((best, rate) => (Math.abs(rate) < Math.abs(best) ? rate : best));
  return {
    value: nearest,
    roots: rates,
    signChanges,
    message:
      rates.length === 1
        ? `The flows change sign ${signChanges} times; one rate makes their present value zero`
        : `The flows change sign ${signChanges} times and ${rates.length} rates make their present value zero; the one nearest zero is answered (all are in roots)`,
  };
}

/** Flows by date as times in years from the earliest date (Actual/365). */
function inYears(flows: readonly DatedFlow[]): TimedFlow[] | undefined {
  const days = flows.map(({ date }) => dayNumber(date));
  if (days.some(Number.isNaN)) return undefined;
  const start = Math.min(...days);
  return flows.map(({ amount }, i) => ({ time: ((days[i] as number) - start) / 365, amount }));
}

/**
 * XNPV: Σ amount / (1 + rate)^((date − first date) / 365), the first date
 * being the earliest one. Null when a date is not valid or rate ≤ -100 %.
 */
export function xnpv(rate: number, flows: readonly DatedFlow[]): number | null {
  const timed = inYears(flows);
  if (!timed || !(rate > -1) || !Number.isFinite(rate)) return null;
  return timed.reduce((sum, { time, amount }) => sum + amount / (1 + rate) ** time, 0);
}

/** XIRR: the annual rate (Actual/365) at which the XNPV of the flows is zero. */
export function xirr(flows: readonly DatedFlow[]): RateAnswer {
  const timed = inYears(flows);
  if (!timed) return { value: null, reason: 'invalid_flow', message: 'Every flow needs a YYYY-MM-DD date' };
  return solveRate(timed);
}

/** IRR of flows one period apart (the first at period 0), as spreadsheets' IRR. */
export function irr(amounts: readonly number[]): RateAnswer {
  return solveRate(amounts.map((amount, time) => ({ time, amount })));
}

/** Days between two YYYY-MM-DD dates (later minus earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}
