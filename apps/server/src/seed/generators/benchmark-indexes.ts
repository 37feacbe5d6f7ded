import type { Rng } from '../random.ts';
import type { Row, SeedContext } from './context.ts';
import { DAY } from './values.ts';

/** The demo's one index, named for what it is: a generated series, not a provider's. */
export const DEMO_INDEX = {
  name: 'Global equities TR (demo)',
  currency: 'USD',
  source: 'Generated with the demo data',
  notes:
    'A made-up total-return series for trying the PME metrics. Replace it with a provider’s export (Index, Date and Level columns) through Import.',
};

/** The first and last dates of the demo index: before the oldest fund's first call, to the dataset's end. */
const FIRST = Date.UTC(2004, 11, 31);
const LAST = Date.UTC(2025, 11, 31);

export function* benchmarkIndexes(ctx: SeedContext, rng: Rng): Generator<Row> {
  if (ctx.counts.funds === 0) return;
  yield { ...DEMO_INDEX, ...ctx.system(rng, 1, 1, 1) };
}

/**
 * Weekday closing levels of the demo index: a random walk of about 8 % a
 * year with 16 % volatility, starting at 1000.
 */
export function* indexLevels(ctx: SeedContext, rng: Rng): Generator<Row> {
  if (ctx.counts.funds === 0) return;
  const drift = 0.08 / 261;
  const sigma = 0.16 / Math.sqrt(261);
  let level = 1000;
  let id = 0;
  const total = Math.round(((LAST - FIRST) / DAY) * (5 / 7));
  for (let t = FIRST; t <= LAST; t += DAY) {
    const weekday = new Date(t).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    if (id > 0) level *= Math.exp(drift - sigma ** 2 / 2 + sigma * rng.normal());
    id++;
    yield {
      indexId: 1,
      date: new Date(t).toISOString().slice(0, 10),
      level: Math.round(level * 100) / 100,
      ...ctx.system(rng, id, id, total),
    };
  }
}
