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
 * The scaled NPV of `flows` summed from the far end (Horner's rule over the
 * gaps between their times), each gap's discount factor computed once per u.
 * Every factor is at most 1 (from the last flow back for u ≥ 0, from the
 * first forward for u < 0), as in `scaledValue`, whose function this is.
 * Besides the value and the slope, `evaluate` sums the same terms in absolute
 * value, times the distance in time and its square (A, B, C: bounds on the
 * value, the slope and the slope's slope from u outwards, away from zero).
 */
class HornerNpv {
  readonly gaps: Float64Array;
  readonly gapAt: Int32Array;
  readonly amounts: Float64Array;
  readonly factors: Float64Array;
  /** The sum of the gaps: the span in time as the sum sees it. */
  readonly span: number;
  value = 0;
  slope = 0;
  a = 0;
  b = 0;
  c = 0;

  constructor(flows: readonly TimedFlow[]) {
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
    this.gaps = Float64Array.from(gaps);
    this.gapAt = Int32Array.from(gapOf);
    this.amounts = Float64Array.from(flows, ({ amount }) => amount);
    this.factors = new Float64Array(gaps.length);
    let span = 0;
    let drift = 0;
    gapOf.forEach((gap, i) => {
      span += gaps[gap] as number;
      drift = Math.max(drift, Math.abs(span - ((flows[i + 1] as TimedFlow).time - (flows[0] as TimedFlow).time)));
    });
    this.span = span;
    this.timeError = drift + 2 * (gapOf.length + 1) * Number.EPSILON * span;
  }

  /**
   * How far apart the times the sum sees (the gaps added up, equal gaps
   * merged) and the flows' own times can be: the two sums are of slightly
   * different functions.
   */
  readonly timeError: number;

  /** The sums at u, scaled as on the side of zero `negative` says (u's own side unless told). */
  evaluate(u: number, negative = u < 0): void {
    const { gaps, gapAt, amounts, factors } = this;
    const n = amounts.length;
    for (let g = 0; g < gaps.length; g++) factors[g] = Math.exp(-Math.abs(u) * (gaps[g] as number));
    let sum: number;
    let slope = 0;
    let a: number;
    let b = 0;
    let c = 0;
    if (!negative) {
      sum = amounts[n - 1] as number;
      a = Math.abs(sum);
      for (let i = n - 2; i >= 0; i--) {
        const gap = gapAt[i] as number;
        const factor = factors[gap] as number;
        const width = gaps[gap] as number;
        slope = (slope - sum * width) * factor;
        sum = sum * factor + (amounts[i] as number);
        c = (c + 2 * width * b + width * width * a) * factor;
        b = (b + a * width) * factor;
        a = a * factor + Math.abs(amounts[i] as number);
      }
    } else {
      sum = amounts[0] as number;
      a = Math.abs(sum);
      for (let i = 1; i < n; i++) {
        const gap = gapAt[i - 1] as number;
        const factor = factors[gap] as number;
        const width = gaps[gap] as number;
        slope = (slope + sum * width) * factor;
        sum = sum * factor + (amounts[i] as number);
        c = (c + 2 * width * b + width * width * a) * factor;
        b = (b + a * width) * factor;
        a = a * factor + Math.abs(amounts[i] as number);
      }
    }
    this.value = sum;
    this.slope = slope;
    this.a = a;
    this.b = b;
    this.c = c;
  }
}

/** A relative margin on the absolute sums A, B, C for their own rounding (about n·ε each). */
const BOUND_MARGIN = 1 + 1e-6;
/** Rounding errors per flow, in units of ε, allowed for the Horner sums (about 3 are possible: the product, the sum, exp). */
const ROUNDING_PER_FLOW = 8;

/**
 * The signs of the scaled NPV and of its slope at the points (ascending, 0
 * among them), exactly as the Horner sum computes them at every point, but
 * without computing it at most points. From zero outwards on each side, the
 * sum at a point p bounds how far both signs provably stay what they are:
 * beyond p (away from zero) the slope is at most B(p) in size and the slope's
 * slope at most C(p), and the sum's rounding error at most
 * ε·(8·n·A(p) + |u|·B(p)) for the value, ε·(8·n·(B(p) + span·A(p)) + |u|·C(p))
 * for the slope. Where the value exceeds twice its error bound plus
 * B(p)·distance, the true value keeps its sign and so does the sum (which
 * errs less than the true value's size); likewise the slope. Points within
 * that distance take p's signs; the next point beyond is computed. Near a
 * rate or a turning point every point is computed, as before.
 */
export function npvSigns(flows: readonly TimedFlow[], grid: Grid, horner = new HornerNpv(flows)): Signs {
  const n = flows.length;
  const span = horner.span;
  const signs: Signs = { value: new Int8Array(grid.length), slope: new Int8Array(grid.length) };
  const zeroAt = firstAtLeastZero(grid);
  const sweep = (from: number, step: 1 | -1) => {
    for (let i = from; i >= 0 && i < grid.length; ) {
      const p = grid.at(i);
      horner.evaluate(p);
      const value = Math.sign(horner.value);
      const slope = Math.sign(horner.slope);
      signs.value[i] = value;
      signs.slope[i] = slope;
      const floor = 1e-300 * (1 + horner.a * (1 + span + span * span));
      const a = horner.a * BOUND_MARGIN + floor;
      const b = horner.b * BOUND_MARGIN + floor;
      const c = horner.c * BOUND_MARGIN + floor;
      const roundings = ROUNDING_PER_FLOW * (n + 2);
      const valueReach =
        (Math.abs(horner.value) - 2 * Number.EPSILON * (roundings * a + Math.abs(p) * b)) /
        (b * (1 + 2 * Number.EPSILON));
      const slopeReach =
        (Math.abs(horner.slope) - 2 * Number.EPSILON * (roundings * (b + span * a) + Math.abs(p) * c)) /
        (c * (1 + 2 * Number.EPSILON));
      const reach = Math.min(valueReach, slopeReach) * (1 - 1e-9);
      // The farthest point within reach (the points are in order): binary search.
      let last = i;
      if (reach > 0) {
        let far = step > 0 ? grid.length - 1 : 0;
        while (last !== far) {
          const middle = step > 0 ? Math.ceil((last + far) / 2) : Math.floor((last + far) / 2);
          if (Math.abs(grid.at(middle) - p) <= reach) last = middle;
          else far = middle - step;
        }
      }
      const [low, high] = step > 0 ? [i, last + 1] : [last, i + 1];
      signs.value.fill(value, low, high);
      signs.slope.fill(slope, low, high);
      i = last + step;
    }
  };
  if (zeroAt < grid.length) sweep(zeroAt, 1);
  sweep(zeroAt - 1, -1);
  return signs;
}

/** The signs of the scaled NPV and of its slope at each point of a grid (0 at zero). */
export interface Signs {
  value: Int8Array;
  slope: Int8Array;
}

/** Points in ascending order, computed when asked for. */
export interface Grid {
  length: number;
  at(i: number): number;
}

/** The grid of an array of points. */
export const gridOf = (points: readonly number[]): Grid => ({
  length: points.length,
  at: (i) => points[i] as number,
});

/** The first point at or above zero (the signs of the points are in order), or the length. */
function firstAtLeastZero(grid: Grid): number {
  let low = 0;
  let high = grid.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (grid.at(middle) >= 0) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The signs `npvSigns` answers, computed at every point: what it is tested against. */
export function npvSignsAtEveryPoint(flows: readonly TimedFlow[], grid: Grid): Signs {
  const horner = new HornerNpv(flows);
  const signs: Signs = { value: new Int8Array(grid.length), slope: new Int8Array(grid.length) };
  for (let i = 0; i < grid.length; i++) {
    horner.evaluate(grid.at(i));
    signs.value[i] = Math.sign(horner.value);
    signs.slope[i] = Math.sign(horner.slope);
  }
  return signs;
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
  const scanned = (i: number) =>
    i === 0 ? lo : i === count ? hi : SCAN_SCALE * Math.sinh(wLo + ((wHi - wLo) * i) / count);
  // Zero is a point: inserted before the first positive one unless one is zero.
  const zeroAt = firstAtLeastZero({ length: count + 1, at: scanned });
  const inserted = zeroAt > 0 && zeroAt <= count && scanned(zeroAt) !== 0;
  const grid: Grid = inserted
    ? { length: count + 2, at: (i) => (i < zeroAt ? scanned(i) : i === zeroAt ? 0 : scanned(i - 1)) }
    : { length: count + 1, at: scanned };
  const horner = new HornerNpv(flows);
  const signs = npvSigns(flows, grid, horner);
  const roots: number[] = [];
  /**
   * Whether the scaled NPV provably keeps its sign between a and b (on one
   * side of zero) as both sums compute it, Horner's and `scaledValue`'s: then
   * no turning point there can hide two rates, and none is looked for (its
   * value would have had that sign). As in `npvSigns`, from the end nearer
   * zero: the value there exceeds both sums' rounding errors, the distance
   * between their functions and B·(b − a).
   */
  const keepsSign = (a: number, b: number) => {
    const negative = b <= 0;
    const far = Math.abs(negative ? a : b);
    horner.evaluate(negative ? b : a, negative);
    const floor = 1e-300 * (1 + horner.a * (1 + horner.span));
    const bigA = horner.a * BOUND_MARGIN + floor;
    const bigB = horner.b * BOUND_MARGIN + floor;
    const roundings = Number.EPSILON * (ROUNDING_PER_FLOW * (flows.length + 2) * bigA + far * bigB);
    const drift = 2 * far * 2 * horner.timeError * bigA;
    return Math.abs(horner.value) * (1 - 1e-9) > 2 * roundings + drift + bigB * (b - a) * (1 + 2 * Number.EPSILON);
  };
  const direct = (u: number) => Math.sign(scaledValue(flows, u).value);
  const solve = (a: number, b: number) => {
    const root = rootInBracket(flows, a, b);
    if (roots.length === 0 || root !== roots.at(-1)) roots.push(root);
  };
  const { value: values, slope: slopes } = signs;
  for (let i = 1; i < grid.length; i++) {
    const before = { value: values[i - 1] as number, slope: slopes[i - 1] as number };
    const after = { value: values[i] as number, slope: slopes[i] as number };
    if (before.value === after.value && before.slope === after.slope && after.value !== 0) continue;
    let [a, b] = [grid.at(i - 1), grid.at(i)];
    if (after.value === 0) roots.push(b);
    if (before.value === 0 || after.value === 0) continue;
    if (before.value !== after.value) {
      // The bracket as the direct sum sees it (the two agree but for rounding at a root's edge).
      if (direct(a) === direct(b)) {
        [a, b] = [grid.at(Math.max(0, i - 2)), grid.at(Math.min(grid.length - 1, i + 1))];
        if (direct(a) === direct(b)) continue;
      }
      solve(a, b);
    } else if (before.slope !== 0 && after.slope !== 0 && before.slope !== after.slope && !keepsSign(a, b)) {
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
    // The roots are of ln(1 + rate): one far above zero is a rate too large for a number; one far below zero is a
    // rate nearer −100 % than a number can be (1 + rate under 2^-53: rate rounds to −1).
    return roots.length > 0
      ? {
          value: null,
          reason: 'rate_out_of_range',
          message:
            (roots[0] as number) > 0
              ? 'The rate that makes the present value zero is too large to be represented'
              : 'The rate that makes the present value zero is nearer to -100 % than can be represented',
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
