import { firms as firmsEntity } from '@data-platform/shared/entities/firms';
import { fundStrategies } from '@data-platform/shared/entities/picklists';
import type { Rng } from '../random.ts';
import { firmNameWords, nameWords } from '../vocabulary.ts';
import type { Row, SeedContext } from './context.ts';
import { money, round2, weights } from './values.ts';

const firmType = weights(firmsEntity, 'type', [
  ['VC firm', 35],
  ['PE firm', 25],
  ['Fund of funds manager', 6],
  ['Family office', 8],
  ['Bank', 4],
  ['Asset manager', 8],
  ['Placement agent', 3],
  ['Corporate VC', 6],
  ['Advisor', 4],
  ['Other', 1],
]);

export function* firms(ctx: SeedContext, rng: Rng): Generator<Row> {
  const domains = new Set<string>();
  for (let id = 1; id <= ctx.counts.firms; id++) {
    const place = ctx.places.pick(rng);
    const type = firmType.pick(rng);
    const root = rng.chance(0.5) ? rng.pick(nameWords) : ctx.lastName(rng);
    const name = rng.chance(0.15)
      ? `${ctx.lastName(rng)} & ${ctx.lastName(rng)}`
      : `${root} ${rng.pick(firmNameWords)}`;
    const domain = ctx.uniqueDomain(domains, name, place);
    ctx.firmNames[id] = name;
    ctx.firmDomains[id] = domain;
    ctx.firmPlaces[id] = place;
    const strategies =
      type === 'VC firm' || type === 'Corporate VC'
        ? rng.some(['Venture Capital', 'Seed/Early Stage', 'Growth'] as const, 1, 2)
        : rng.some(fundStrategies, 1, 3);
    yield {
      name,
      type,
      website: `https://www.${domain}`,
      hqCountryId: place.country.id,
      hqStateId: place.state?.id ?? null,
      city: place.city,
      aum: rng.chance(0.85) ? money(round2(rng.logNormal(1.5e9, 1.3)), 'USD') : null,
      foundedYear: rng.int(1975, 2021),
      description: `${name} is a ${type === 'Other' ? 'investment firm' : type} investing in ${strategies
        .join(', ')
        .toLowerCase()} opportunities from ${place.city ?? place.country.name}.`,
      strategies,
      ...ctx.system(rng, id, id, ctx.counts.firms),
    };
  }
}
