import type { Rng } from '../random.ts';
import type { Row, SeedContext } from './context.ts';
import { fundHistory } from './fund-history.ts';
import { money } from './values.ts';

const notes: Record<string, readonly string[]> = {
  'Capital call': ['Initial closing call', 'Follow-on investment', 'Management fee and investments'],
  Distribution: ['Exit proceeds', 'Partial realisation', 'Dividend recapitalisation'],
  'Recallable distribution': ['Bridge facility repaid, recallable'],
  'Fee outside commitment': ['Organisational expenses'],
  'In-kind distribution': ['Listed shares after IPO'],
};

/** Each fund's calls and distributions, from the history its NAV statements are computed from too (fund-history.ts). */
export function* fundCashFlows(ctx: SeedContext, rng: Rng): Generator<Row> {
  let id = 0;
  for (let fund = 1; fund <= ctx.counts.funds; fund++) {
    const currency = ctx.fundCurrency[fund] as string;
    for (const flow of fundHistory(ctx, fund).flows) {
      id++;
      yield {
        fundId: fund,
        date: flow.date,
        type: flow.type,
        amount: money(flow.amount, currency),
        note: rng.chance(0.25) ? rng.pick(notes[flow.type] ?? ['']) || null : null,
        ...ctx.system(rng, id, fund, ctx.counts.funds),
      };
    }
  }
}
