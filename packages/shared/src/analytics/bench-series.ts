/**
 * How long a fund's quarterly series takes (GET /funds/{id}/metrics): 200 and
 * 2,000 flows over ten years (40 quarters), without and with a daily index.
 * Not a test: run `node --import tsx packages/shared/src/analytics/bench-series.ts`
 * (add --cpu-prof to profile). Compare runs made back to back on one machine.
 */

import { mulberry32 } from '../random.ts';
import type { IndexLevel } from './fund-metrics.ts';
import { type FundInput, fundAnalytics, type NavStatement, type TypedFlow } from './fund-series.ts';
import { dayNumber } from './rate.ts';

const isoDay = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

const START = dayNumber('2015-01-15');
const AS_OF = '2024-12-31';
const SPAN = dayNumber(AS_OF) - START;

/** A fund of `count` flows: calls over the first six years, distributions from the third, some fees, a few NAV statements. */
export function benchFund(count: number, withIndex: boolean, seed = 1): FundInput {
  const next = mulberry32(seed);
  const flows: TypedFlow[] = [];
  for (let i = 0; i < count; i++) {
    const kind = next();
    if (kind < 0.45)
      flows.push({
        date: isoDay(START + Math.floor(next() * SPAN * 0.6)),
        type: 'Capital call',
        amount: Math.round(1e4 + next() * 1e6),
      });
    else if (kind < 0.5)
      flows.push({
        date: isoDay(START + Math.floor(next() * SPAN)),
        type: 'Fee outside commitment',
        amount: Math.round(1e3 + next() * 5e4),
      });
    else
      flows.push({
        date: isoDay(START + Math.floor(SPAN * (0.25 + next() * 0.75))),
        type: 'Distribution',
        amount: Math.round(1e4 + next() * 1.2e6),
      });
  }
  const statements: NavStatement[] = [];
  for (let year = 2017; year <= 2024; year += 2) {
    statements.push({
      id: year,
      date: `${year}-06-30`,
      nav: Math.round(count * 3e5 * (0.5 + next())),
      source: 'manual',
    });
  }
  const index: IndexLevel[] = [];
  if (withIndex) {
    let level = 100;
    for (let day = START - 30; day <= START + SPAN; day++) {
      const weekday = (day + 4) % 7; // 1970-01-01 was a Thursday
      if (weekday === 0 || weekday === 6) continue;
      level *= 1 + (next() - 0.48) * 0.02;
      index.push({ date: isoDay(day), level });
    }
  }
  return { flows, statements, committed: count * 6e5, index: withIndex ? index : undefined };
}

function time(label: string, fund: FundInput): void {
  const runs: number[] = [];
  let points = 0;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    points = fundAnalytics(fund, AS_OF).series.length;
    runs.push(performance.now() - started);
  }
  console.log(
    `${label}: ${points} quarters, best of 3 ${Math.min(...runs).toFixed(1)} ms (${runs.map((run) => run.toFixed(0)).join(', ')})`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number).filter(Boolean);
  for (const count of sizes.length > 0 ? sizes : [200, 2000]) {
    time(`${count} flows`, benchFund(count, false));
    time(`${count} flows, daily index`, benchFund(count, true));
  }
}
