import { companies as companiesEntity } from '@data-platform/shared/entities/companies';
import { industries } from '@data-platform/shared/entities/picklists';
import type { Rng } from '../random.ts';
import {
  audiences,
  brandEndings,
  brandMiddles,
  brandStarts,
  companyTags,
  industryWords,
  legalSuffixes,
  nameWords,
} from '../vocabulary.ts';
import type { Row, SeedContext } from './context.ts';
import { money, round2, slug, weights } from './values.ts';

const companyStage = weights(companiesEntity, 'stage', [
  ['Pre-seed', 12],
  ['Seed', 24],
  ['Series A', 18],
  ['Series B', 12],
  ['Series C+', 7],
  ['Growth', 8],
  ['Public', 5],
  ['Acquired', 8],
  ['Closed', 6],
]);
const companyStatus = weights(companiesEntity, 'status', [
  ['Prospect', 45],
  ['Active', 25],
  ['Portfolio', 12],
  ['Exited', 6],
  ['Passed', 12],
]);
/** Per stage: founded years, median employees, median total raised (USD). */
const stageProfile: Record<string, { founded: [number, number]; employees: number; raised: number }> = {
  'Pre-seed': { founded: [2021, 2025], employees: 4, raised: 500_000 },
  Seed: { founded: [2018, 2025], employees: 12, raised: 3_000_000 },
  'Series A': { founded: [2016, 2024], employees: 45, raised: 15_000_000 },
  'Series B': { founded: [2013, 2023], employees: 130, raised: 50_000_000 },
  'Series C+': { founded: [2010, 2022], employees: 380, raised: 160_000_000 },
  Growth: { founded: [2005, 2020], employees: 900, raised: 400_000_000 },
  Public: { founded: [1980, 2018], employees: 6000, raised: 800_000_000 },
  Acquired: { founded: [2000, 2022], employees: 250, raised: 60_000_000 },
  Closed: { founded: [2008, 2022], employees: 15, raised: 5_000_000 },
};

/** An invented brand name: start, maybe a middle, and an ending. */
export function brand(rng: Rng): string {
  const middle = rng.chance(0.35) ? rng.pick(brandMiddles) : '';
  return rng.pick(brandStarts) + middle + rng.pick(brandEndings);
}

function companyName(ctx: SeedContext, rng: Rng, industry: string): string {
  const word = rng.pick(industryWords[industry] ?? ['Group']);
  const r = rng.next();
  if (r < 0.45) return `${brand(rng)} ${word}`;
  if (r < 0.57) return brand(rng);
  if (r < 0.72) return `${rng.pick(nameWords)} ${word}`;
  if (r < 0.85) return `${ctx.lastName(rng)} ${word}`;
  return rng.pick(ctx.fakerCompanyNames);
}

export function* companies(ctx: SeedContext, rng: Rng): Generator<Row> {
  const names = new Set<string>();
  const domains = new Set<string>();
  for (let id = 1; id <= ctx.counts.companies; id++) {
    const industry = rng.pick(industries);
    let name = companyName(ctx, rng, industry);
    // Real data has namesakes, but few: try a few times for a new name.
    for (let attempt = 0; attempt < 4 && names.has(name); attempt++) name = companyName(ctx, rng, industry);
    names.add(name);
    const place = ctx.places.pick(rng);
    const domain = ctx.uniqueDomain(domains, name, place);
    ctx.companyNames[id] = name;
    ctx.companyDomains[id] = domain;
    ctx.companyPlaces[id] = place;
    const stage = companyStage.pick(rng);
    const profile = stageProfile[stage] as (typeof stageProfile)[string];
    const employees = Math.max(1, Math.round(rng.logNormal(profile.employees, 0.6)));
    const early = stage === 'Pre-seed' || stage === 'Seed';
    const ownership =
      stage === 'Public'
        ? 'Public'
        : stage === 'Acquired'
          ? 'Subsidiary'
          : early || stage === 'Closed'
            ? rng.chance(0.6)
              ? 'Private'
              : 'VC-backed'
            : stage === 'Growth'
              ? rng.pick(['VC-backed', 'PE-backed'] as const)
              : rng.chance(0.05)
                ? 'Government'
                : 'VC-backed';
    yield {
      name,
      legalName: rng.chance(0.7) ? `${name} ${legalSuffixes[place.country.iso2] ?? 'Ltd.'}` : null,
      website: rng.chance(0.95) ? `https://${rng.chance(0.7) ? 'www.' : ''}${domain}` : null,
      description: rng.chance(0.8)
        ? `${name} builds ${rng.faker.company.buzzAdjective()} ${rng.faker.company.buzzNoun()} for ${rng.pick(audiences)}.`
        : null,
      industry,
      stage,
      status: companyStatus.pick(rng),
      ownership,
      hqCountryId: place.country.id,
      hqStateId: place.state?.id ?? null,
      city: place.city,
      foundedYear: rng.int(profile.founded[0], profile.founded[1]),
      employees: rng.chance(0.9) ? employees : null,
      revenue: early && rng.chance(0.6) ? null : money(round2(employees * rng.logNormal(150_000, 0.5)), place.currency),
      totalRaised: rng.chance(0.9) ? money(round2(rng.logNormal(profile.raised, 0.7)), 'USD') : null,
      linkedinUrl: rng.chance(0.6) ? `https://www.linkedin.com/company/${slug(name)}` : null,
      ownerId: rng.chance(0.6) ? ctx.userId(rng) : null,
      tags: rng.chance(0.5) ? rng.some(companyTags, 1, 3) : [],
      ...ctx.system(rng, id, id, ctx.counts.companies),
    };
  }
}
