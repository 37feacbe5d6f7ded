import { deals as dealsEntity } from '@data-platform/shared/entities/deals';
import type { Rng } from '../random.ts';
import { dealSources, nameWords } from '../vocabulary.ts';
import type { Row, SeedContext } from './context.ts';
import { DAY, END, isoDate, money, round, round2, weights } from './values.ts';

const dealStage = weights(dealsEntity, 'stage', [
  ['Sourced', 25],
  ['First meeting', 18],
  ['Due diligence', 12],
  ['Investment committee', 5],
  ['Term sheet', 4],
  ['Closing', 3],
  ['Invested', 12],
  ['Passed', 16],
  ['Monitoring', 5],
]);
const dealType = weights(dealsEntity, 'type', [
  ['Seed', 14],
  ['Series A', 18],
  ['Series B', 12],
  ['Series C+', 7],
  ['Growth', 10],
  ['Buyout', 10],
  ['Add-on', 5],
  ['Secondary', 5],
  ['Co-investment', 8],
  ['Fund commitment', 4],
  ['Debt', 5],
  ['Other', 2],
]);
/** Median deal size (USD) by type. */
const dealSize: Record<string, number> = {
  Seed: 2.5e6,
  'Series A': 12e6,
  'Series B': 35e6,
  'Series C+': 80e6,
  Growth: 120e6,
  Buyout: 400e6,
  'Add-on': 60e6,
  Secondary: 40e6,
  'Co-investment': 30e6,
  'Fund commitment': 25e6,
  Debt: 50e6,
  Other: 10e6,
};

export function* deals(ctx: SeedContext, rng: Rng): Generator<Row> {
  for (let id = 1; id <= ctx.counts.deals; id++) {
    const company = ctx.counts.companies > 0 ? rng.int(1, ctx.counts.companies) : 0;
    const fund = ctx.counts.funds > 0 && rng.chance(0.8) ? rng.int(1, ctx.counts.funds) : 0;
    const type = dealType.pick(rng);
    const stage = dealStage.pick(rng);
    const currency = fund ? (ctx.fundCurrency[fund] as string) : company ? ctx.companyPlaces[company]?.currency : 'USD';
    const amount = round2(rng.logNormal(dealSize[type] ?? 10e6, 0.6));
    const preMoney = round2(amount * rng.float(2.5, 7));
    const system = ctx.system(rng, id, id, ctx.counts.deals);
    const created = Date.parse(system.createdAt as string);
    const closed = stage === 'Invested' || stage === 'Monitoring' || stage === 'Passed';
    ctx.dealCompany[id] = company;
    ctx.dealCurrency[id] = currency ?? 'USD';
    ctx.dealAmount[id] = amount;
    yield {
      name: `${company ? ctx.companyNames[company] : rng.pick(nameWords)} ${type}`,
      stage,
      type,
      amount: money(amount, currency ?? 'USD'),
      preMoneyValuation: rng.chance(0.8) ? money(preMoney, currency ?? 'USD') : null,
      postMoneyValuation: money(preMoney + amount, currency ?? 'USD'),
      ownershipPct: round((amount / (preMoney + amount)) * 100, 2),
      fundId: fund || null,
      expectedCloseDate: isoDate(created + rng.int(30, 240) * DAY),
      closedDate: closed ? isoDate(Math.min(END, created + rng.int(20, 300) * DAY)) : null,
      source: rng.pick(dealSources),
      ownerId: rng.chance(0.8) ? ctx.userId(rng) : null,
      priority: rng.pick(['High', 'Medium', 'Medium', 'Low'] as const),
      ...system,
    };
  }
}
