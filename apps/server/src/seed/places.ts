import { City, type ICity } from 'country-state-city';
import type { Rng } from './random.ts';
import { Weighted } from './random.ts';
import { countryWeights, hubCities, otherCountriesWeight } from './vocabulary.ts';

export interface CountryRef {
  id: number;
  name: string;
  iso2: string;
  phoneCode: string | null;
  currency: string | null;
}

export interface StateRef {
  id: number;
  countryId: number;
  name: string;
  code: string | null;
}

/** What the database the rows are for already holds: reference data, and where new users start. */
export interface ReferenceData {
  countries: CountryRef[];
  states: StateRef[];
  currencies: string[];
  /** The id of the first generated user (accounts made before the seed keep theirs). */
  firstUserId: number;
  /** The role generated users get, when the database has it. */
  userRoleId: number | null;
}

/** Where a record is: a country, a state of that country (or none) and a city. */
export interface Place {
  country: CountryRef;
  state: StateRef | null;
  city: string | null;
  /** The currency amounts of a record here are in: the country's when known, else USD. */
  currency: string;
}

interface CountryPool {
  hubs: Place[];
  cities: Place[];
}

/**
 * Draws places weighted toward the countries and cities where investment
 * activity clusters. Cities come from country-state-city, and a city's state
 * is looked up in the database's states of the same country, so a state
 * always belongs to its country.
 */
export class Places {
  private readonly pools = new Map<string, CountryPool>();
  private citiesByCountry: Map<string, ICity[]> | undefined;
  private readonly countries: Weighted<CountryRef | null>;
  private readonly statesByCode = new Map<string, StateRef>();
  private readonly statesByCountry = new Map<number, StateRef[]>();
  private readonly currencies: Set<string>;

  constructor(private readonly reference: ReferenceData) {
    if (reference.countries.length === 0) throw new Error('No countries in the database: load reference data first');
    this.currencies = new Set(reference.currencies);
    for (const state of reference.states) {
      const key = `${state.countryId}:${state.code}`;
      if (state.code && !this.statesByCode.has(key)) this.statesByCode.set(key, state);
      const list = this.statesByCountry.get(state.countryId) ?? [];
      list.push(state);
      this.statesByCountry.set(state.countryId, list);
    }
    const byIso = new Map(reference.countries.map((c) => [c.iso2, c]));
    const weighted: [CountryRef | null, number][] = [];
    for (const [iso2, weight] of countryWeights) {
      const country = byIso.get(iso2);
      if (country) weighted.push([country, weight]);
    }
    // null stands for "any country at all".
    weighted.push([null, otherCountriesWeight]);
    this.countries = new Weighted(weighted);
  }

  pick(rng: Rng): Place {
    const country = this.countries.pick(rng) ?? rng.pick(this.reference.countries);
    const pool = this.poolOf(country);
    if (pool.hubs.length > 0 && rng.chance(0.6)) return rng.pick(pool.hubs);
    if (pool.cities.length > 0) return rng.pick(pool.cities);
    const states = this.statesByCountry.get(country.id) ?? [];
    return this.place(country, states.length > 0 ? rng.pick(states) : null, null);
  }

  private place(country: CountryRef, state: StateRef | null, city: string | null): Place {
    const currency = country.currency && this.currencies.has(country.currency) ? country.currency : 'USD';
    return { country, state, city, currency };
  }

  private poolOf(country: CountryRef): CountryPool {
    let pool = this.pools.get(country.iso2);
    if (pool) return pool;
    const cities = this.citiesOf(country.iso2).map((c) =>
      this.place(country, this.statesByCode.get(`${country.id}:${c.stateCode}`) ?? null, c.name),
    );
    const hubs: Place[] = [];
    for (const name of hubCities[country.iso2] ?? []) {
      const hub = cities.find((c) => c.city === name);
      if (hub) hubs.push(hub);
    }
    pool = { hubs, cities };
    this.pools.set(country.iso2, pool);
    return pool;
  }

  /** The package's own lookup filters all cities on every call; group them once instead. */
  private citiesOf(iso2: string): ICity[] {
    if (!this.citiesByCountry) {
      this.citiesByCountry = new Map();
      for (const city of City.getAllCities()) {
        const list = this.citiesByCountry.get(city.countryCode);
        if (list) list.push(city);
        else this.citiesByCountry.set(city.countryCode, [city]);
      }
    }
    return this.citiesByCountry.get(iso2) ?? [];
  }
}
