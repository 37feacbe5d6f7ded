import { investors as investorsEntity } from '@data-platform/shared/entities/investors';
import { fundStrategies, geographies } from '@data-platform/shared/entities/picklists';
import type { Place } from '../places.ts';
import type { Rng } from '../random.ts';
import { nameWords } from '../vocabulary.ts';
import { brand } from './companies.ts';
import type { Row, SeedContext } from './context.ts';
import { money, round2, weights } from './values.ts';

const investorType = weights(investorsEntity, 'type', [
  ['Public pension', 8],
  ['Private pension', 5],
  ['Endowment', 6],
  ['Foundation', 7],
  ['Sovereign wealth fund', 2],
  ['Insurance company', 5],
  ['Single family office', 12],
  ['Multi family office', 6],
  ['Fund of funds', 6],
  ['Bank', 4],
  ['Asset manager', 8],
  ['Wealth manager', 7],
  ['Corporate', 5],
  ['Individual', 14],
  ['Government agency', 3],
  ['Other', 2],
]);
const fundraisingStatus = weights(investorsEntity, 'fundraisingStatus', [
  ['Identified', 30],
  ['Contacted', 22],
  ['Meeting', 15],
  ['Due diligence', 10],
  ['Soft circle', 6],
  ['Hard commit', 5],
  ['Closed', 6],
  ['Declined', 6],
]);

function investorName(ctx: SeedContext, rng: Rng, type: string, place: Place): string {
  const last = ctx.lastName(rng);
  const region = place.state?.name ?? place.country.name;
  switch (type) {
    case 'Public pension':
      return `${region} ${rng.pick(['Public Employees', 'Teachers', 'State', 'Municipal'])} Retirement System`;
    case 'Private pension':
      return `${rng.pick(nameWords)} ${rng.pick(['Pension Fund', 'Pension Plan', 'Retirement Trust'])}`;
    case 'Endowment':
      return `${rng.chance(0.5) ? `${last} University` : `University of ${place.city ?? region}`} Endowment`;
    case 'Foundation':
      return `${rng.chance(0.4) ? `${ctx.firstName(rng)} and ${ctx.firstName(rng)} ${last}` : last} Foundation`;
    case 'Sovereign wealth fund':
      return `${place.country.name} Investment Authority`;
    case 'Insurance company':
      return `${rng.pick(nameWords)} ${rng.pick(['Life', 'Mutual', 'Assurance'])} Insurance`;
    case 'Single family office':
      return `${last} Family Office`;
    case 'Multi family office':
      return `${rng.pick(nameWords)} Family Partners`;
    case 'Fund of funds':
      return `${rng.pick(nameWords)} Private Markets`;
    case 'Bank':
      return `${rng.pick([last, rng.pick(nameWords)])} Bank`;
    case 'Asset manager':
      return `${last} Asset Management`;
    case 'Wealth manager':
      return `${rng.pick(nameWords)} Wealth Partners`;
    case 'Corporate':
      return `${brand(rng)} ${rng.pick(['Corporation', 'Group', 'Holdings'])}`;
    case 'Individual':
      return `${ctx.firstName(rng)} ${last}`;
    case 'Government agency':
      return `${region} Innovation Agency`;
    default:
      return `${rng.pick(nameWords)} Capital`;
  }
}

export function* investors(ctx: SeedContext, rng: Rng): Generator<Row> {
  const domains = new Set<string>();
  for (let id = 1; id <= ctx.counts.investors; id++) {
    const type = investorType.pick(rng);
    const place = ctx.places.pick(rng);
    const name = investorName(ctx, rng, type, place);
    const individual = type === 'Individual';
    const aum = round2(rng.logNormal(individual ? 50e6 : 5e9, 1.2));
    const commitmentMin = round2(aum * rng.float(0.0005, 0.003));
    yield {
      name,
      type,
      aum: rng.chance(0.85) ? money(aum, 'USD') : null,
      hqCountryId: place.country.id,
      hqStateId: place.state?.id ?? null,
      city: place.city,
      website: individual ? null : `https://www.${ctx.uniqueDomain(domains, name, place)}`,
      alternativesAllocationPct: rng.chance(0.7) ? rng.int(5, 45) : null,
      commitmentMin: rng.chance(0.7) ? money(commitmentMin, 'USD') : null,
      commitmentMax: rng.chance(0.7) ? money(round2(commitmentMin * rng.float(3, 10)), 'USD') : null,
      preferredStrategies: rng.some(fundStrategies, 1, 3),
      preferredGeographies: rng.some(geographies, 1, 2),
      fundraisingStatus: fundraisingStatus.pick(rng),
      ownerId: rng.chance(0.7) ? ctx.userId(rng) : null,
      ...ctx.system(rng, id, id, ctx.counts.investors),
    };
  }
}
