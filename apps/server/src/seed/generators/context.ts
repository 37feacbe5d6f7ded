import type { EntityDescription } from '@data-platform/shared/entities/entity';
import type { Place, ReferenceData } from '../places.ts';
import { Places } from '../places.ts';
import { Rng, streamSeed } from '../random.ts';
import { countryDomains } from '../vocabulary.ts';
import { END, isoDateTime, START, slug } from './values.ts';

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

/** Makes one entity's rows from the shared context and a random stream of its own. */
export type EntityGenerator = (context: SeedContext, rng: Rng) => Iterable<Row>;

/**
 * What the generators of one dataset share: the reference data, the counts,
 * pools of names, and facts that later entities need from earlier ones
 * (names, domains, places, currencies), kept in compact arrays indexed by id
 * and written by the generator of the entity they describe.
 */
export class SeedContext {
  readonly places: Places;
  readonly firmNames: string[] = [];
  readonly firmDomains: string[] = [];
  readonly firmPlaces: Place[] = [];
  readonly fundFirm: Int32Array;
  readonly fundNames: string[] = [];
  readonly fundCurrency: string[] = [];
  readonly fundVintage: Int16Array;
  readonly fundCommitted: Float64Array;
  readonly companyNames: string[] = [];
  readonly companyDomains: string[] = [];
  readonly companyPlaces: Place[] = [];
  /** The company (id) or firm (negative id) each contact works at; 0 for none. */
  readonly contactEmployer: Int32Array;
  readonly contactTitle: string[] = [];
  readonly dealCompany: Int32Array;
  readonly dealCurrency: string[] = [];
  readonly dealAmount: Float64Array;
  // Faker's name methods are slow next to a pick from a list: draw pools of their output once.
  readonly firstNames: string[];
  readonly lastNames: string[];
  readonly fakerCompanyNames: string[];

  constructor(
    readonly reference: ReferenceData,
    readonly counts: SeedCounts,
    readonly seed: number,
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

  firstName(rng: Rng): string {
    return rng.pick(this.firstNames);
  }

  lastName(rng: Rng): string {
    return rng.pick(this.lastNames);
  }

  userId(rng: Rng): number | null {
    return this.counts.users > 0 ? this.reference.firstUserId + rng.int(0, this.counts.users - 1) : null;
  }

  /** id, timestamps spread over the dataset's years by `position` of `total`, authors, version 1. */
  system(rng: Rng, id: number, position: number, total: number): Row {
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
  uniqueDomain(taken: Set<string>, name: string, place: Place): string {
    const tld = countryDomains[place.country.iso2] ?? 'com';
    const base = slug(name).slice(0, 40) || 'company';
    let domain = `${base}.${tld}`;
    for (let n = 2; taken.has(domain); n++) domain = `${base}${n}.${tld}`;
    taken.add(domain);
    return domain;
  }
}
