import { companies } from '@data-platform/shared/entities/companies';
import { deals } from '@data-platform/shared/entities/deals';
import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { firms } from '@data-platform/shared/entities/firms';
import { funds } from '@data-platform/shared/entities/funds';
import { investors } from '@data-platform/shared/entities/investors';
import {
  type attachableEntities,
  fundStrategies,
  geographies,
  industries,
} from '@data-platform/shared/entities/picklists';
import type { Place, ReferenceData } from './places.ts';
import { Places } from './places.ts';
import { Rng, streamSeed, Weighted } from './random.ts';
import { SEED_USER_DOMAIN, seededEntities } from './tables.ts';
import {
  audiences,
  brandEndings,
  brandMiddles,
  brandStarts,
  companyTags,
  companyTitles,
  contactTags,
  countryDomains,
  dealSources,
  firmNameWords,
  firmTitles,
  fundDomiciles,
  independentTitles,
  industryWords,
  investorContactRoles,
  legalSuffixes,
  nameWords,
  noteNextSteps,
  noteOpenings,
  noteTopics,
  personalEmailDomains,
} from './vocabulary.ts';

/** A row as the API shapes it: field name → value (money as `{ amount, currency }`, arrays, ISO dates). */
export type Row = Record<string, unknown>;

/** How many records of each kind to generate; links and performance follow from these. */
export interface SeedCounts {
  users: number;
  firms: number;
  funds: number;
  companies: number;
  contacts: number;
  deals: number;
  investors: number;
  notes: number;
}

/** The rows of one entity, generated lazily; streams must be read in the order given. */
export interface EntityRows {
  entity: EntityDescription;
  rows(): Iterable<Row>;
}

export const DEFAULT_SEED = 20_240_601;
/** Each fund reports this many quarter-ends, the last one at the dataset's reference date. */
export const QUARTERS = 8;

/** `npm run seed -- --scale N`: N companies and contacts, and the rest in proportion. */
export function countsForScale(scale: number): SeedCounts {
  const atLeastOne = (n: number) => (scale > 0 ? Math.max(1, Math.floor(n)) : 0);
  return {
    users: scale > 0 ? 8 : 0,
    companies: scale,
    contacts: scale,
    deals: Math.floor(scale / 5),
    investors: Math.floor(scale / 10),
    firms: atLeastOne(scale / 50),
    funds: atLeastOne(scale / 25),
    notes: Math.floor(scale / 10),
  };
}

/** What a fresh installation shows: small enough to load in a moment, big enough to page and filter. */
export const demoCounts: SeedCounts = {
  users: 6,
  firms: 60,
  funds: 12,
  companies: 300,
  contacts: 300,
  deals: 80,
  investors: 60,
  notes: 150,
};

// Rows are dated over five years ending at a fixed date, so that a seed gives the same rows on any day.
const START = Date.UTC(2021, 0, 1);
const END = Date.UTC(2025, 11, 31, 18);
const DAY = 86_400_000;
const YEAR = 365.25 * DAY;

/** The last QUARTERS quarter-ends up to the end of 2025. */
export const quarterEnds: string[] = Array.from({ length: QUARTERS }, (_, i) => {
  const q = 4 * 2025 + 3 - (QUARTERS - 1 - i);
  const year = Math.floor(q / 4);
  const month = (q % 4) * 3 + 3;
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
});

const dates = new Map<number, string>();
const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** `new Date(ms).toISOString()`, several times faster: two of these per row add up over millions. */
function isoDateTime(ms: number): string {
  const whole = Math.floor(ms);
  const day = Math.floor(whole / DAY);
  let date = dates.get(day);
  if (date === undefined) {
    date = new Date(day * DAY).toISOString().slice(0, 10);
    dates.set(day, date);
  }
  const t = whole - day * DAY;
  const time = `${pad(Math.floor(t / 3_600_000), 2)}:${pad(Math.floor(t / 60_000) % 60, 2)}:${pad(Math.floor(t / 1000) % 60, 2)}`;
  return `${date}T${time}.${pad(t % 1000, 3)}Z`;
}
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const money = (amount: number, currency: string) => ({ amount, currency });
/** Rounds to a "nice" precision: 2 significant digits for sizes and amounts. */
function round2(value: number): number {
  if (value <= 0) return 0;
  const step = 10 ** Math.max(0, Math.floor(Math.log10(value)) - 1);
  return Math.round(value / step) * step;
}
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
/** Lower-case letters and digits only, for domains and email addresses. */
const slug = (text: string) =>
  text
    .normalize('NFD')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

type Options<E extends EntityDescription, F extends keyof E['fields']> = E['fields'][F] extends {
  options: readonly (infer O)[];
}
  ? O
  : never;

/** Weights for a select field's options, checked against the description at compile time. */
function weights<E extends EntityDescription, F extends keyof E['fields'] & string>(
  _entity: E,
  _field: F,
  table: readonly (readonly [Options<E, F>, number])[],
): Weighted<Options<E, F>> {
  return new Weighted(table);
}

const companyStage = weights(companies, 'stage', [
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
const companyStatus = weights(companies, 'status', [
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
const firmType = weights(firms, 'type', [
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
const fundStatusByAge = (age: number, rng: Rng) => {
  if (age < 2) return rng.pick(['First close', 'Final close', 'Investing'] as const);
  if (age < 6) return 'Investing' as const;
  if (age < 12) return 'Harvesting' as const;
  return rng.chance(0.5) ? ('Liquidated' as const) : ('Harvesting' as const);
};
const fundStrategy = weights(funds, 'strategy', [
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
const dealStage = weights(deals, 'stage', [
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
const dealType = weights(deals, 'type', [
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
const investorType = weights(investors, 'type', [
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
const fundraisingStatus = weights(investors, 'fundraisingStatus', [
  ['Identified', 30],
  ['Contacted', 22],
  ['Meeting', 15],
  ['Due diligence', 10],
  ['Soft circle', 6],
  ['Hard commit', 5],
  ['Closed', 6],
  ['Declined', 6],
]);
const noteTarget = new Weighted<(typeof attachableEntities)[number]>([
  ['companies', 40],
  ['contacts', 20],
  ['deals', 20],
  ['funds', 8],
  ['investors', 8],
  ['firms', 4],
]);

/**
 * Generates a whole dataset, deterministically: the same reference data,
 * counts and seed give the same rows. Ids are assigned here (1, 2, ... per
 * table) so that links and notes can point at rows before they are loaded.
 * Each entity draws from a stream of its own; facts that later entities need
 * (names, domains, places, currencies) are kept in compact arrays.
 */
export function generateDataset(reference: ReferenceData, counts: SeedCounts, seed = DEFAULT_SEED): EntityRows[] {
  return new Dataset(reference, counts, seed).streams();
}

class Dataset {
  private readonly places: Places;
  private readonly firmNames: string[] = [];
  private readonly firmDomains: string[] = [];
  private readonly firmPlaces: Place[] = [];
  private readonly fundFirm: Int32Array;
  private readonly fundNames: string[] = [];
  private readonly fundCurrency: string[] = [];
  private readonly fundVintage: Int16Array;
  private readonly fundCommitted: Float64Array;
  private readonly companyNames: string[] = [];
  private readonly companyDomains: string[] = [];
  private readonly companyPlaces: Place[] = [];
  /** The company (id) or firm (negative id) each contact works at; 0 for none. */
  private readonly contactEmployer: Int32Array;
  private readonly contactTitle: string[] = [];
  private readonly dealCompany: Int32Array;
  private readonly dealCurrency: string[] = [];
  private readonly dealAmount: Float64Array;
  // Faker's name methods are slow next to a pick from a list: draw pools of their output once.
  private readonly firstNames: string[];
  private readonly lastNames: string[];
  private readonly fakerCompanyNames: string[];

  constructor(
    private readonly reference: ReferenceData,
    private readonly counts: SeedCounts,
    private readonly seed: number,
  ) {
    this.places = new Places(reference);
    const names = new Rng(streamSeed(seed, 'names'));
    this.firstNames = Array.from({ length: 2000 }, () => names.faker.person.firstName());
    this.lastNames = Array.from({ length: 3000 }, () => names.faker.person.lastName());
    this.fakerCompanyNames = Array.from({ length: 5000 }, () => names.faker.company.name());
    this.fundFirm = new Int32Array(counts.funds + 1);
    this.fundVintage = new Int16Array(counts.funds + 1);
    this.fundCommitted = new Float64Array(counts.funds + 1);
    this.contactEmployer = new Int32Array(counts.contacts + 1);
    this.dealCompany = new Int32Array(counts.deals + 1);
    this.dealAmount = new Float64Array(counts.deals + 1);
    const known = new Set(reference.currencies);
    for (const code of ['USD', 'EUR', 'GBP']) {
      if (!known.has(code)) throw new Error(`Currency ${code} is missing from the database`);
    }
  }

  streams(): EntityRows[] {
    const makers: Record<string, (rng: Rng) => Iterable<Row>> = {
      users: (rng) => this.users(rng),
      firms: (rng) => this.firms(rng),
      funds: (rng) => this.funds(rng),
      fundPerformances: (rng) => this.fundPerformances(rng),
      companies: (rng) => this.companies(rng),
      contacts: (rng) => this.contacts(rng),
      deals: (rng) => this.deals(rng),
      investors: (rng) => this.investors(rng),
      contactCompanies: (rng) => this.contactCompanies(rng),
      contactFunds: (rng) => this.contactFunds(rng),
      contactDeals: (rng) => this.contactDeals(rng),
      contactInvestors: (rng) => this.contactInvestors(rng),
      dealCompanies: (rng) => this.dealCompanies(rng),
      dealInvestors: (rng) => this.dealInvestors(rng),
      notes: (rng) => this.notes(rng),
    };
    return seededEntities.map((entity) => {
      const make = makers[entity.name];
      if (!make) throw new Error(`No generator for ${entity.name}`);
      return { entity, rows: () => make(new Rng(streamSeed(this.seed, entity.name))) };
    });
  }

  private firstName(rng: Rng): string {
    return rng.pick(this.firstNames);
  }

  private lastName(rng: Rng): string {
    return rng.pick(this.lastNames);
  }

  private userId(rng: Rng): number | null {
    return this.counts.users > 0 ? this.reference.firstUserId + rng.int(0, this.counts.users - 1) : null;
  }

  /** id, timestamps spread over the dataset's years by `position` of `total`, authors, version 1. */
  private system(rng: Rng, id: number, position: number, total: number): Row {
    const created = START + ((position - 1 + rng.next()) / Math.max(1, total)) * (END - START);
    const updated = created + rng.next() * rng.next() * (END - created);
    const author = this.userId(rng);
    return {
      id,
      createdAt: isoDateTime(created),
      updatedAt: isoDateTime(updated),
      createdById: author,
      updatedById: rng.chance(0.7) ? author : this.userId(rng),
      version: 1,
    };
  }

  /** A domain not used before: `name.tld`, then `name2.tld`, ... */
  private uniqueDomain(taken: Set<string>, name: string, place: Place): string {
    const tld = countryDomains[place.country.iso2] ?? 'com';
    const base = slug(name).slice(0, 40) || 'company';
    let domain = `${base}.${tld}`;
    for (let n = 2; taken.has(domain); n++) domain = `${base}${n}.${tld}`;
    taken.add(domain);
    return domain;
  }

  private *users(rng: Rng): Generator<Row> {
    for (let n = 1; n <= this.counts.users; n++) {
      const firstName = this.firstName(rng);
      const lastName = this.lastName(rng);
      const system = this.system(rng, this.reference.firstUserId + n - 1, n, this.counts.users);
      yield {
        email: `${slug(firstName)}.${slug(lastName)}.${n}@${SEED_USER_DOMAIN}`,
        firstName,
        lastName,
        status: 'active',
        roleId: this.reference.userRoleId,
        lastSignInAt: isoDateTime(END - rng.next() * 30 * DAY),
        ...system,
        createdById: null,
        updatedById: null,
      };
    }
  }

  private *firms(rng: Rng): Generator<Row> {
    const domains = new Set<string>();
    for (let id = 1; id <= this.counts.firms; id++) {
      const place = this.places.pick(rng);
      const type = firmType.pick(rng);
      const root = rng.chance(0.5) ? rng.pick(nameWords) : this.lastName(rng);
      const name = rng.chance(0.15)
        ? `${this.lastName(rng)} & ${this.lastName(rng)}`
        : `${root} ${rng.pick(firmNameWords)}`;
      const domain = this.uniqueDomain(domains, name, place);
      this.firmNames[id] = name;
      this.firmDomains[id] = domain;
      this.firmPlaces[id] = place;
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
        ...this.system(rng, id, id, this.counts.firms),
      };
    }
  }

  private *funds(rng: Rng): Generator<Row> {
    const inSeries = new Int32Array(this.counts.firms + 1);
    const firstVintage = new Int16Array(this.counts.firms + 1);
    for (let id = 1; id <= this.counts.funds; id++) {
      const firm = this.counts.firms > 0 ? rng.int(1, this.counts.firms) : 0;
      const number = (inSeries[firm] as number) + 1;
      inSeries[firm] = number;
      if (number === 1) firstVintage[firm] = rng.int(2005, 2016);
      // Every fund has reported for all QUARTERS quarters, so none is younger than 2023.
      const vintage = Math.min(2023, (firstVintage[firm] as number) + 3 * (number - 1));
      const firmPlace = firm ? (this.firmPlaces[firm] as Place) : this.places.pick(rng);
      const currency = firmPlace.country.iso2 === 'GB' ? 'GBP' : firmPlace.currency === 'EUR' ? 'EUR' : 'USD';
      const strategy = fundStrategy.pick(rng);
      const target = round2(rng.logNormal(fundSize[strategy] ?? 300e6, 0.6));
      const hardCap = round2(target * 1.25);
      const finalSize = Math.min(hardCap, round2(target * rng.float(0.75, 1.3)));
      const firstClose = Date.UTC(vintage - 1, rng.int(0, 11), rng.int(1, 28));
      const venture = strategy === 'Venture Capital' || strategy === 'Seed/Early Stage' || strategy === 'Growth';
      const name = `${firm ? this.firmNames[firm] : `${rng.pick(nameWords)} Capital`} ${
        rng.chance(0.2) ? `${strategy} ` : ''
      }Fund ${roman(number)}`;
      this.fundFirm[id] = firm;
      this.fundNames[id] = name;
      this.fundCurrency[id] = currency;
      this.fundVintage[id] = vintage;
      this.fundCommitted[id] = finalSize;
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
        ...this.system(rng, id, id, this.counts.funds),
      };
    }
  }

  /**
   * Cumulative figures that evolve like a real fund's: capital is called over
   * the first years, distributions start after a few, TVPI climbs out of the
   * J-curve toward the fund's own multiple, and NAV is what remains.
   */
  private *fundPerformances(rng: Rng): Generator<Row> {
    let id = 0;
    for (let fund = 1; fund <= this.counts.funds; fund++) {
      const committed = this.fundCommitted[fund] as number;
      const currency = this.fundCurrency[fund] as string;
      const start = Date.UTC(this.fundVintage[fund] as number, 6, 1);
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
          ...this.system(rng, id, id, this.counts.funds * QUARTERS),
        };
      }
    }
  }

  private brand(rng: Rng): string {
    const middle = rng.chance(0.35) ? rng.pick(brandMiddles) : '';
    return rng.pick(brandStarts) + middle + rng.pick(brandEndings);
  }

  private companyName(rng: Rng, industry: string): string {
    const word = rng.pick(industryWords[industry] ?? ['Group']);
    const r = rng.next();
    if (r < 0.45) return `${this.brand(rng)} ${word}`;
    if (r < 0.57) return this.brand(rng);
    if (r < 0.72) return `${rng.pick(nameWords)} ${word}`;
    if (r < 0.85) return `${this.lastName(rng)} ${word}`;
    return rng.pick(this.fakerCompanyNames);
  }

  private *companies(rng: Rng): Generator<Row> {
    const names = new Set<string>();
    const domains = new Set<string>();
    for (let id = 1; id <= this.counts.companies; id++) {
      const industry = rng.pick(industries);
      let name = this.companyName(rng, industry);
      // Real data has namesakes, but few: try a few times for a new name.
      for (let attempt = 0; attempt < 4 && names.has(name); attempt++) name = this.companyName(rng, industry);
      names.add(name);
      const place = this.places.pick(rng);
      const domain = this.uniqueDomain(domains, name, place);
      this.companyNames[id] = name;
      this.companyDomains[id] = domain;
      this.companyPlaces[id] = place;
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
        revenue:
          early && rng.chance(0.6) ? null : money(round2(employees * rng.logNormal(150_000, 0.5)), place.currency),
        totalRaised: rng.chance(0.9) ? money(round2(rng.logNormal(profile.raised, 0.7)), 'USD') : null,
        linkedinUrl: rng.chance(0.6) ? `https://www.linkedin.com/company/${slug(name)}` : null,
        ownerId: rng.chance(0.6) ? this.userId(rng) : null,
        tags: rng.chance(0.5) ? rng.some(companyTags, 1, 3) : [],
        ...this.system(rng, id, id, this.counts.companies),
      };
    }
  }

  private phone(rng: Rng, place: Place): string {
    const code = /^\+?[0-9-]+/.exec(place.country.phoneCode ?? '')?.[0] ?? '+1';
    const prefix = code.startsWith('+') ? code : `+${code}`;
    return place.country.iso2 === 'US' || place.country.iso2 === 'CA'
      ? `${prefix} ${rng.int(201, 989)} ${rng.int(200, 999)} ${rng.int(1000, 9999)}`
      : `${prefix} ${rng.int(10, 99)} ${rng.int(1000, 9999)} ${rng.int(1000, 9999)}`;
  }

  private *contacts(rng: Rng): Generator<Row> {
    const emails = new Set<string>();
    for (let id = 1; id <= this.counts.contacts; id++) {
      const firstName = this.firstName(rng);
      const lastName = this.lastName(rng);
      const r = rng.next();
      let employer = 0;
      let domain: string = rng.pick(personalEmailDomains);
      let place: Place;
      let title: string;
      if (r < 0.35 && this.counts.firms > 0) {
        const firm = rng.int(1, this.counts.firms);
        employer = -firm;
        domain = this.firmDomains[firm] as string;
        place = rng.chance(0.85) ? (this.firmPlaces[firm] as Place) : this.places.pick(rng);
        title = rng.pick(firmTitles);
      } else if (r < 0.9 && this.counts.companies > 0) {
        employer = rng.int(1, this.counts.companies);
        domain = this.companyDomains[employer] as string;
        place = rng.chance(0.85) ? (this.companyPlaces[employer] as Place) : this.places.pick(rng);
        title = rng.pick(companyTitles);
      } else {
        place = this.places.pick(rng);
        title = rng.pick(independentTitles);
      }
      this.contactEmployer[id] = employer;
      this.contactTitle[id] = title;
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
        phone: rng.chance(0.8) ? this.phone(rng, place) : null,
        title,
        firmId: employer < 0 ? -employer : null,
        hqCountryId: place.country.id,
        hqStateId: place.state?.id ?? null,
        city: place.city,
        linkedinUrl: rng.chance(0.6) ? `https://www.linkedin.com/in/${first}-${last}-${rng.int(1000, 99999)}` : null,
        ownerId: rng.chance(0.5) ? this.userId(rng) : null,
        tags: rng.chance(0.3) ? rng.some(contactTags, 1, 2) : [],
        ...this.system(rng, id, id, this.counts.contacts),
      };
    }
  }

  private *deals(rng: Rng): Generator<Row> {
    for (let id = 1; id <= this.counts.deals; id++) {
      const company = this.counts.companies > 0 ? rng.int(1, this.counts.companies) : 0;
      const fund = this.counts.funds > 0 && rng.chance(0.8) ? rng.int(1, this.counts.funds) : 0;
      const type = dealType.pick(rng);
      const stage = dealStage.pick(rng);
      const currency = fund
        ? (this.fundCurrency[fund] as string)
        : company
          ? this.companyPlaces[company]?.currency
          : 'USD';
      const amount = round2(rng.logNormal(dealSize[type] ?? 10e6, 0.6));
      const preMoney = round2(amount * rng.float(2.5, 7));
      const system = this.system(rng, id, id, this.counts.deals);
      const created = Date.parse(system.createdAt as string);
      const closed = stage === 'Invested' || stage === 'Monitoring' || stage === 'Passed';
      this.dealCompany[id] = company;
      this.dealCurrency[id] = currency ?? 'USD';
      this.dealAmount[id] = amount;
      yield {
        name: `${company ? this.companyNames[company] : rng.pick(nameWords)} ${type}`,
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
        ownerId: rng.chance(0.8) ? this.userId(rng) : null,
        priority: rng.pick(['High', 'Medium', 'Medium', 'Low'] as const),
        ...system,
      };
    }
  }

  private investorName(rng: Rng, type: string, place: Place): string {
    const last = this.lastName(rng);
    const region = place.state?.name ?? place.country.name;
    switch (type) {
      case 'Public pension':
        return `${region} ${rng.pick(['Public Employees', 'Teachers', 'State', 'Municipal'])} Retirement System`;
      case 'Private pension':
        return `${rng.pick(nameWords)} ${rng.pick(['Pension Fund', 'Pension Plan', 'Retirement Trust'])}`;
      case 'Endowment':
        return `${rng.chance(0.5) ? `${last} University` : `University of ${place.city ?? region}`} Endowment`;
      case 'Foundation':
        return `${rng.chance(0.4) ? `${this.firstName(rng)} and ${this.firstName(rng)} ${last}` : last} Foundation`;
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
        return `${this.brand(rng)} ${rng.pick(['Corporation', 'Group', 'Holdings'])}`;
      case 'Individual':
        return `${this.firstName(rng)} ${last}`;
      case 'Government agency':
        return `${region} Innovation Agency`;
      default:
        return `${rng.pick(nameWords)} Capital`;
    }
  }

  private *investors(rng: Rng): Generator<Row> {
    const domains = new Set<string>();
    for (let id = 1; id <= this.counts.investors; id++) {
      const type = investorType.pick(rng);
      const place = this.places.pick(rng);
      const name = this.investorName(rng, type, place);
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
        website: individual ? null : `https://www.${this.uniqueDomain(domains, name, place)}`,
        alternativesAllocationPct: rng.chance(0.7) ? rng.int(5, 45) : null,
        commitmentMin: rng.chance(0.7) ? money(commitmentMin, 'USD') : null,
        commitmentMax: rng.chance(0.7) ? money(round2(commitmentMin * rng.float(3, 10)), 'USD') : null,
        preferredStrategies: rng.some(fundStrategies, 1, 3),
        preferredGeographies: rng.some(geographies, 1, 2),
        fundraisingStatus: fundraisingStatus.pick(rng),
        ownerId: rng.chance(0.7) ? this.userId(rng) : null,
        ...this.system(rng, id, id, this.counts.investors),
      };
    }
  }

  /**
   * Link rows, each pair at most once. Walks the records of one side (`group`)
   * and asks `pairs` for the records of the other side to link, with a role.
   */
  private *links(
    rng: Rng,
    [groupField, otherField]: [string, string],
    groupCount: number,
    pairs: (group: number) => [other: number, role: string, extra?: Row][],
  ): Generator<Row> {
    let id = 0;
    const seen = new Set<number>();
    for (let group = 1; group <= groupCount; group++) {
      seen.clear();
      for (const [other, role, extra] of pairs(group)) {
        if (!other || seen.has(other)) continue;
        seen.add(other);
        // Links are dated like the records they hang off.
        yield {
          [groupField]: group,
          [otherField]: other,
          role,
          ...extra,
          ...this.system(rng, ++id, group, groupCount),
        };
      }
    }
  }

  private contactCompanies(rng: Rng): Generator<Row> {
    const companyCount = this.counts.companies;
    return this.links(rng, ['contactId', 'companyId'], this.counts.contacts, (contact) => {
      const employer = this.contactEmployer[contact] as number;
      const pairs: [number, string][] = employer > 0 ? [[employer, this.contactTitle[contact] as string]] : [];
      if (companyCount > 0 && rng.chance(employer > 0 ? 0.12 : 0.3)) {
        pairs.push([
          rng.int(1, companyCount),
          rng.pick(['Board member', 'Advisor', 'Angel investor', 'Former employee']),
        ]);
      }
      return pairs;
    });
  }

  /** People at a fund's manager work on it; a few outsiders follow it as LPs. */
  private contactFunds(rng: Rng): Generator<Row> {
    const byFirm = this.contactsByEmployer((employer) => (employer < 0 ? -employer : 0), this.counts.firms);
    return this.links(rng, ['fundId', 'contactId'], this.counts.funds, (fund) => {
      if (this.counts.contacts === 0) return [];
      const team = byFirm[this.fundFirm[fund] as number] ?? new Int32Array();
      return Array.from({ length: rng.int(1, 4) }, (): [number, string] => {
        if (team.length > 0 && rng.chance(0.8)) {
          return [
            team[rng.int(0, team.length - 1)] as number,
            rng.pick(['Partner', 'Deal team', 'Investor relations']),
          ];
        }
        return [rng.int(1, this.counts.contacts), 'LP contact'];
      });
    });
  }

  /** A deal's contacts: someone at the target company when there is one, and people around the deal. */
  private contactDeals(rng: Rng): Generator<Row> {
    const byCompany = this.contactsByEmployer((employer) => Math.max(0, employer), this.counts.companies);
    return this.links(rng, ['dealId', 'contactId'], this.counts.deals, (deal) => {
      if (this.counts.contacts === 0) return [];
      const pairs: [number, string][] = [];
      const team = byCompany[this.dealCompany[deal] as number] ?? new Int32Array();
      if (team.length > 0) pairs.push([team[rng.int(0, team.length - 1)] as number, 'Management']);
      for (let i = rng.int(1, 3); i > 0; i--) {
        pairs.push([rng.int(1, this.counts.contacts), rng.pick(['Deal lead', 'Advisor', 'Banker', 'Legal counsel'])]);
      }
      return pairs;
    });
  }

  private contactInvestors(rng: Rng): Generator<Row> {
    return this.links(rng, ['investorId', 'contactId'], this.counts.investors, () =>
      this.counts.contacts === 0
        ? []
        : Array.from({ length: rng.int(1, 3) }, (): [number, string] => [
            rng.int(1, this.counts.contacts),
            rng.pick(investorContactRoles),
          ]),
    );
  }

  private dealCompanies(rng: Rng): Generator<Row> {
    return this.links(rng, ['dealId', 'companyId'], this.counts.deals, (deal) => {
      const pairs: [number, string][] = [[this.dealCompany[deal] as number, 'Target']];
      if (this.counts.companies > 0 && rng.chance(0.08))
        pairs.push([rng.int(1, this.counts.companies), 'Add-on target']);
      return pairs;
    });
  }

  /** Co-investors of a deal, each committing a share of its amount in the deal's currency. */
  private dealInvestors(rng: Rng): Generator<Row> {
    return this.links(rng, ['dealId', 'investorId'], this.counts.deals, (deal) => {
      if (this.counts.investors === 0) return [];
      const amount = this.dealAmount[deal] as number;
      const currency = this.dealCurrency[deal] as string;
      return Array.from({ length: rng.int(0, 3) }, (_, i): [number, string, Row] => [
        rng.int(1, this.counts.investors),
        i === 0 ? 'Lead investor' : 'Co-investor',
        { commitment: money(round2(amount * rng.float(0.05, i === 0 ? 0.5 : 0.25)), currency) },
      ]);
    });
  }

  private *notes(rng: Rng): Generator<Row> {
    const countOf: Record<string, number> = {
      companies: this.counts.companies,
      contacts: this.counts.contacts,
      deals: this.counts.deals,
      funds: this.counts.funds,
      investors: this.counts.investors,
      firms: this.counts.firms,
    };
    for (let id = 1; id <= this.counts.notes; id++) {
      const entity = noteTarget.pick(rng);
      const count = countOf[entity] ?? 0;
      const system = this.system(rng, id, id, this.counts.notes);
      if (count === 0) continue;
      const person = `${this.firstName(rng)} ${this.lastName(rng)}`;
      yield {
        entity,
        recordId: rng.int(1, count),
        body: `${rng.pick(noteOpenings)} ${person}: ${rng.pick(noteTopics)}. ${rng.pick(noteNextSteps)}`,
        ...system,
      };
    }
  }

  /** Contact ids grouped by the record `keyOf(employer)` names (0: none). */
  private contactsByEmployer(keyOf: (employer: number) => number, size: number): Int32Array[] {
    const sizes = new Int32Array(size + 1);
    for (let c = 1; c <= this.counts.contacts; c++) {
      const key = keyOf(this.contactEmployer[c] as number);
      if (key) sizes[key] = (sizes[key] as number) + 1;
    }
    const groups = Array.from({ length: size + 1 }, (_, i) => new Int32Array(sizes[i] as number));
    const filled = new Int32Array(size + 1);
    for (let c = 1; c <= this.counts.contacts; c++) {
      const key = keyOf(this.contactEmployer[c] as number);
      if (!key) continue;
      (groups[key] as Int32Array)[filled[key] as number] = c;
      filled[key] = (filled[key] as number) + 1;
    }
    return groups;
  }
}

function roman(n: number): string {
  const numerals: [number, string][] = [
    [10, 'X'],
    [9, 'IX'],
    [5, 'V'],
    [4, 'IV'],
    [1, 'I'],
  ];
  let rest = n;
  let text = '';
  for (const [value, numeral] of numerals) {
    while (rest >= value) {
      text += numeral;
      rest -= value;
    }
  }
  return text;
}
