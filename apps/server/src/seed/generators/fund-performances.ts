import type { Rng } from '../random.ts';
import type { Row, SeedContext } from './context.ts';
import { type FundHistory, fundHistory } from './fund-history.ts';
import { quarterEnds, round, YEAR } from './values.ts';

const reported = new Set(quarterEnds);

/**
 * The NAV statements of a fund's history (fund-history.ts, from which its
 * cash flows are generated too): every year end since its first call, and
 * every quarter end of the last QUARTERS. Paid-in, distributed and the NAV
 * are the history's at the date, so the statements and the flows agree.
 */
export function statementsOf(history: FundHistory) {
  return history.quarters.filter((q) => reported.has(q.date) || q.date.endsWith('-12-31'));
}

export function* fundPerformances(ctx: SeedContext, rng: Rng): Generator<Row> {
  let id = 0;
  for (let fund = 1; fund <= ctx.counts.funds; fund++) {
    const committed = ctx.fundCommitted[fund] as number;
    const currency = ctx.fundCurrency[fund] as string;
    const history = fundHistory(ctx, fund);
    const uplift = rng.float(1.1, 1.3);
    const first = history.flows[0]?.date ?? '2025-12-31';
    for (const { date, paidIn, distributed, nav } of statementsOf(history)) {
      // The manager's reported IRR, approximated from the multiple over the money's average life (an exact
      // XIRR per statement made the demo's generation seconds slower; GET /funds/{id}/metrics computes it).
      const tvpi = paidIn > 0 ? (distributed + nav) / paidIn : 1;
      const years = Math.max(1, ((Date.parse(date) - Date.parse(first)) / YEAR) * 0.55);
      const netIrr = round(Math.min(100, Math.max(-99, (Math.max(0.05, tvpi) ** (1 / years) - 1) * 100)), 1);
      id++;
      yield {
        fundId: fund,
        asOfDate: date,
        currency,
        committed,
        paidIn,
        distributed,
        nav,
        netIrr,
        grossIrr: netIrr === null ? null : round(netIrr + (netIrr > 0 ? rng.float(3, 7) : rng.float(0.5, 2)), 1),
        grossMoic: round(Math.max(0, 1 + (tvpi - 1) * uplift), 2),
        notes: rng.chance(0.08) ? rng.pick(['Unaudited', 'Restated after audit', 'Estimate from GP letter']) : null,
        ...ctx.system(rng, id, fund, ctx.counts.funds),
      };
    }
  }
}
