import type { CashFlowType } from '@data-platform/shared/entities/fund-cash-flows';
import { mulberry32 } from '@data-platform/shared/random';
import { streamSeed } from '../random.ts';
import type { SeedContext } from './context.ts';
import { DAY, isoDate, YEAR } from './values.ts';

/** The last quarter end of the dataset: flows and NAV statements stop there. */
const LAST_QUARTER_END = Date.UTC(2025, 11, 31);

export interface HistoryFlow {
  date: string;
  type: CashFlowType;
  /** Positive: the type gives the direction. */
  amount: number;
}

export interface QuarterState {
  /** YYYY-MM-DD quarter end. */
  date: string;
  paidIn: number;
  distributed: number;
  nav: number;
}

export interface FundHistory {
  flows: HistoryFlow[];
  /** Every quarter end from the first call's quarter to the end of 2025, with the figures at that date. */
  quarters: QuarterState[];
}

const thousands = (amount: number) => Math.max(0, Math.round(amount / 1000) * 1000);

/**
 * A fund's cash flows and quarter-end NAVs, the same for the cash-flow and
 * the performance generators (both call this): capital is called over the
 * first years, fees outside the commitment are paid in the first four,
 * distributions start after about three years and grow as the portfolio is
 * sold, and the NAV compounds a quarterly return around the fund's own, net
 * of what was called and paid out. Deterministic per seed and fund.
 */
export function fundHistory(ctx: SeedContext, fund: number): FundHistory {
  // A small deterministic stream per fund: a faker-backed Rng per fund would cost more than the history.
  const next = mulberry32(streamSeed(ctx.seed, `fund-history-${fund}`));
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const committed = ctx.fundCommitted[fund] as number;
  const vintage = ctx.fundVintage[fund] as number;
  // Quarterly return: a fund between about -3 % and +20 % a year, noisy quarter to quarter.
  const annual = -0.03 + next() * 0.23;
  const quarterly = (1 + annual) ** 0.25 - 1;
  const pace = 1.5 + next() * 2;
  const callable = 0.85 + next() * 0.15;
  const flows: HistoryFlow[] = [];
  const quarters: QuarterState[] = [];
  let called = 0;
  let paidIn = 0;
  let distributed = 0;
  let nav = 0;
  for (let q = 0; ; q++) {
    const end = Date.UTC(vintage, 9 + 3 * q, 0);
    if (end > LAST_QUARTER_END) break;
    const start = Date.UTC(vintage, 6 + 3 * q, 1);
    const age = (end - Date.UTC(vintage, 6, 1)) / YEAR;
    const day = () => isoDate(start + Math.floor(next() * ((end - start) / DAY + 1)) * DAY);
    // Last quarter's NAV earns this quarter's return before this quarter's flows.
    nav *= 1 + quarterly + normal() * 0.04;
    const call = thousands(committed * callable * (1 - Math.exp(-age / pace)) - called);
    if (call > 0 && age < 8) {
      flows.push({ date: day(), type: 'Capital call', amount: call });
      called += call;
      paidIn += call;
      nav += call;
    }
    if (age < 4 && q % 4 === 1) {
      const fee = thousands(committed * 0.0015);
      if (fee > 0) {
        flows.push({ date: day(), type: 'Fee outside commitment', amount: fee });
        paidIn += fee;
      }
    }
    if (age > 3 && nav > 0) {
      const share = Math.min(0.35, 0.02 + 0.03 * (age - 3)) * (0.5 + next());
      const payout = thousands(nav * share);
      if (payout > 0) {
        const draw = next();
        const type: CashFlowType =
          age < 5 && draw < 0.1 ? 'Recallable distribution' : draw > 0.93 ? 'In-kind distribution' : 'Distribution';
        flows.push({ date: day(), type, amount: payout });
        distributed += payout;
        nav = Math.max(0, nav - payout);
      }
    }
    if (paidIn > 0) quarters.push({ date: isoDate(end), paidIn, distributed, nav: thousands(nav) });
  }
  flows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return { flows, quarters };
}
