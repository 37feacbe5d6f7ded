import type { Place } from '../places.ts';
import type { Rng } from '../random.ts';
import { companyTitles, contactTags, firmTitles, independentTitles, personalEmailDomains } from '../vocabulary.ts';
import type { Row, SeedContext } from './context.ts';
import { slug } from './values.ts';

function phone(rng: Rng, place: Place): string {
  const code = /^\+?[0-9-]+/.exec(place.country.phoneCode ?? '')?.[0] ?? '+1';
  const prefix = code.startsWith('+') ? code : `+${code}`;
  return place.country.iso2 === 'US' || place.country.iso2 === 'CA'
    ? `${prefix} ${rng.int(201, 989)} ${rng.int(200, 999)} ${rng.int(1000, 9999)}`
    : `${prefix} ${rng.int(10, 99)} ${rng.int(1000, 9999)} ${rng.int(1000, 9999)}`;
}

export function* contacts(ctx: SeedContext, rng: Rng): Generator<Row> {
  const emails = new Set<string>();
  for (let id = 1; id <= ctx.counts.contacts; id++) {
    const firstName = ctx.firstName(rng);
    const lastName = ctx.lastName(rng);
    const r = rng.next();
    let employer = 0;
    let domain: string = rng.pick(personalEmailDomains);
    let place: Place;
    let title: string;
    if (r < 0.35 && ctx.counts.firms > 0) {
      const firm = rng.int(1, ctx.counts.firms);
      employer = -firm;
      domain = ctx.firmDomains[firm] as string;
      place = rng.chance(0.85) ? (ctx.firmPlaces[firm] as Place) : ctx.places.pick(rng);
      title = rng.pick(firmTitles);
    } else if (r < 0.9 && ctx.counts.companies > 0) {
      employer = rng.int(1, ctx.counts.companies);
      domain = ctx.companyDomains[employer] as string;
      place = rng.chance(0.85) ? (ctx.companyPlaces[employer] as Place) : ctx.places.pick(rng);
      title = rng.pick(companyTitles);
    } else {
      place = ctx.places.pick(rng);
      title = rng.pick(independentTitles);
    }
    ctx.contactEmployer[id] = employer;
    ctx.contactTitle[id] = title;
    const first = slug(firstName);
    const last = slug(lastName);
    const candidates = [`${first}.${last}`, `${first[0]}${last}`, `${first}${last[0]}`, `${first}.${last}.${id}`];
    const local = candidates.find((c) => !emails.has(`${c}@${domain}`)) as string;
    const email = `${local}@${domain}`;
    emails.add(email);
    yield {
      firstName,
      lastName,
      email,
      otherEmails: rng.chance(0.15) ? [`${first}${last}${rng.int(1, 99)}@${rng.pick(personalEmailDomains)}`] : [],
      phone: rng.chance(0.8) ? phone(rng, place) : null,
      title,
      firmId: employer < 0 ? -employer : null,
      hqCountryId: place.country.id,
      hqStateId: place.state?.id ?? null,
      city: place.city,
      linkedinUrl: rng.chance(0.6) ? `https://www.linkedin.com/in/${first}-${last}-${rng.int(1000, 99999)}` : null,
      ownerId: rng.chance(0.5) ? ctx.userId(rng) : null,
      tags: rng.chance(0.3) ? rng.some(contactTags, 1, 2) : [],
      ...ctx.system(rng, id, id, ctx.counts.contacts),
    };
  }
}
