import type { Rng } from '../random.ts';
import type { Row, SeedContext } from './context.ts';
import { QUARTERS, quarterEnds, round, YEAR } from './values.ts';

/**
 * Cumulative figures that evolve like a real fund's: capital is called over
 * the first years, distributions start after a few, TVPI climbs out of the
 * J-curve toward the fund's own multiple, and NAV is what remains.
 */
export function* fundPerformances(ctx: SeedContext, rng: Rng): Generator<Row> {
  let id = 0;
  for (let fund = 1; fund <= ctx.counts.funds; fund++) {
    const committed = ctx.fundCommitted[fund] as number;
    const currency = ctx.fundCurrency[fund] as string;
    const start = Date.UTC(ctx.fundVintage[fund] as number, 6, 1);
    const multiple = Math.max(0.6, rng.logNormal(1.75, 0.3));
    const pace = rng.float(2, 3.5);
    const callable = rng.float(0.88, 1);
    let drift = 0;
    let distributed = 0;
    for (const asOf of quarterEnds) {
      const age = Math.max(0.25, (Date.parse(asOf) - start) / YEAR);
      drift += rng.normal() * 0.015;
      const tvpi = Math.max(0.5, (0.9 + (multiple - 0.9) * Math.min(1, age / 7)) * (1 + drift));
      const paidInRatio = callable * (1 - Math.exp(-age / pace));
      const dpi = Math.min(tvpi * 0.97, multiple * Math.min(1, Math.max(0, (age - 3.5) / 9)) ** 1.3);
      const paidIn = Math.round(committed * paidInRatio);
      // Distributions are cumulative: a dip in value never takes one back.
      distributed = Math.max(distributed, Math.round(paidIn * dpi));
      const nav = Math.max(0, Math.round(paidIn * tvpi) - distributed);
      const years = Math.max(1, age * 0.55);
      const netIrr = round((Math.max(0.05, tvpi) ** (1 / years) - 1) * 100, 1);
      const grossMoic = round(1 + (tvpi - 1) * 1.25, 2);
      id++;
      yield {
        fundId: fund,
        asOfDate: asOf,
        currency,
        committed,
        paidIn,
        distributed,
        nav,
        netIrr,
        grossIrr: round(netIrr + (netIrr > 0 ? rng.float(3, 7) : rng.float(0.5, 2)), 1),
        grossMoic: Math.max(0, grossMoic),
        notes: rng.chance(0.08) ? rng.pick(['Unaudited', 'Restated after audit', 'Estimate from GP letter']) : null,
        ...ctx.system(rng, id, id, ctx.counts.funds * QUARTERS),
      };
    }
  }
}
