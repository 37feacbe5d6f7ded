import { funds as fundsEntity } from '@data-platform/shared/entities/funds';
import { geographies, industries } from '@data-platform/shared/entities/picklists';
import type { Place } from '../places.ts';
import type { Rng } from '../random.ts';
import { fundDomiciles, nameWords } from '../vocabulary.ts';
import type { Row, SeedContext } from './context.ts';
import { DAY, isoDate, roman, round2, weights } from './values.ts';

const fundStatusByAge = (age: number, rng: Rng) => {
  if (age < 2) return rng.pick(['First close', 'Final close', 'Investing'] as const);
  if (age < 6) return 'Investing' as const;
  if (age < 12) return 'Harvesting' as const;
  return rng.chance(0.5) ? ('Liquidated' as const) : ('Harvesting' as const);
};
const fundStrategy = weights(fundsEntity, 'strategy', [
  ['Venture Capital', 30],
  ['Seed/Early Stage', 10],
  ['Growth', 14],
  ['Buyout', 22],
  ['Mezzanine', 3],
  ['Distressed', 2],
  ['Secondaries', 4],
  ['Fund of Funds', 3],
  ['Private Credit', 6],
  ['Real Estate', 3],
  ['Infrastructure', 3],
]);
/** Median fund size by strategy (in the fund's currency). */
const fundSize: Record<string, number> = {
  'Venture Capital': 250e6,
  'Seed/Early Stage': 80e6,
  Growth: 600e6,
  Buyout: 1.5e9,
  Mezzanine: 500e6,
  Distressed: 700e6,
  Secondaries: 1.2e9,
  'Fund of Funds': 400e6,
  'Private Credit': 900e6,
  'Real Estate': 700e6,
  Infrastructure: 1.5e9,
};

export function* funds(ctx: SeedContext, rng: Rng): Generator<Row> {
  const inSeries = new Int32Array(ctx.counts.firms + 1);
  const firstVintage = new Int16Array(ctx.counts.firms + 1);
  // The strategies of the funds made so far, by vintage: funds are ranked against peers of the same vintage
  // and strategy (quartiles), so that even the small demo dataset has some.
  const cohorts = new Map<number, string[]>();
  for (let id = 1; id <= ctx.counts.funds; id++) {
    const firm = ctx.counts.firms > 0 ? rng.int(1, ctx.counts.firms) : 0;
    const number = (inSeries[firm] as number) + 1;
    inSeries[firm] = number;
    if (number === 1) {
      const years = [...cohorts.keys()].filter((year) => year <= 2016);
      firstVintage[firm] = years.length > 0 && rng.chance(0.5) ? rng.pick(years) : rng.int(2005, 2016);
    }
    // Every fund has reported for all QUARTERS quarters, so none is younger than 2023.
    const vintage = Math.min(2023, (firstVintage[firm] as number) + 3 * (number - 1));
    const firmPlace = firm ? (ctx.firmPlaces[firm] as Place) : ctx.places.pick(rng);
    const currency = firmPlace.country.iso2 === 'GB' ? 'GBP' : firmPlace.currency === 'EUR' ? 'EUR' : 'USD';
    const peers = cohorts.get(vintage);
    const strategy = peers && rng.chance(0.6) ? rng.pick(peers) : fundStrategy.pick(rng);
    if (peers) peers.push(strategy);
    else cohorts.set(vintage, [strategy]);
    const target = round2(rng.logNormal(fundSize[strategy] ?? 300e6, 0.6));
    const hardCap = round2(target * 1.25);
    const finalSize = Math.min(hardCap, round2(target * rng.float(0.75, 1.3)));
    const firstClose = Date.UTC(vintage - 1, rng.int(0, 11), rng.int(1, 28));
    const venture = strategy === 'Venture Capital' || strategy === 'Seed/Early Stage' || strategy === 'Growth';
    const name = `${firm ? ctx.firmNames[firm] : `${rng.pick(nameWords)} Capital`} ${
      rng.chance(0.2) ? `${strategy} ` : ''
    }Fund ${roman(number)}`;
    ctx.fundFirm[id] = firm;
    ctx.fundNames[id] = name;
    ctx.fundCurrency[id] = currency;
    ctx.fundVintage[id] = vintage;
    ctx.fundCommitted[id] = finalSize;
    yield {
      name,
      firmId: firm || null,
      numberInSeries: number,
      vintageYear: vintage,
      strategy,
      status: fundStatusByAge(2025.5 - vintage, rng),
      currency,
      targetSize: target,
      hardCap,
      finalSize,
      firstCloseDate: isoDate(firstClose),
      finalCloseDate: isoDate(firstClose + rng.int(180, 540) * DAY),
      domicile: rng.pick(fundDomiciles[currency] ?? ['Delaware']),
      geographyFocus: rng.some(geographies, 1, 2),
      sectorFocus: venture ? rng.some(industries, 1, 3) : rng.some(industries, 0, 2),
      managementFeePct: venture ? rng.pick([2, 2, 2.5, 1.75]) : rng.pick([1.5, 1.75, 2, 1.25]),
      carryPct: rng.pick([20, 20, 20, 25, 30]),
      hurdlePct: venture ? (rng.chance(0.7) ? 0 : 8) : 8,
      ...ctx.system(rng, id, id, ctx.counts.funds),
    };
  }
}
