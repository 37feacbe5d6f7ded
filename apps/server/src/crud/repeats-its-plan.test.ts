import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { entities } from '@data-platform/shared/entities/registry';
import { parseListQueryString } from '@data-platform/shared/query/list-query';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { relationScope } from './list-compiler.ts';
import { plannedOnce, repeatsItsPlan } from './repeats-its-plan.ts';

const companies = entities.companies as EntityDescription;
const countries = entities.countries as EntityDescription;
const states = entities.states as EntityDescription;

const repeats = (queryString: string, entity = companies, scope?: Parameters<typeof repeatsItsPlan>[2]) =>
  repeatsItsPlan(entity, parseListQueryString(entity, Object.fromEntries(new URLSearchParams(queryString))), scope);

describe('which lists keep their plan (decision 0049)', () => {
  it('keeps a whole table’s plan in any order', () => {
    expect(repeats('sort=name')).toBe(true);
    expect(repeats('sort=-employees')).toBe(true);
    expect(repeats('')).toBe(true);
  });

  it('keeps the plan of rows equal to values in the order of the index that leads with their fields', () => {
    // companies: an index on (hqCountryId, name, id).
    expect(repeats('filter[hqCountryId]=7&sort=name')).toBe(true);
    expect(repeats('filter[hqCountryId]=7&sort=-name')).toBe(true);
    expect(repeats('filter[hqCountryId]=7&sort=name&count=estimated&pageSize=20')).toBe(true);
  });

  it('plans per value any other filter', () => {
    // An order no index serves after the country: the rows of a small country are sorted, a big one's walked.
    expect(repeats('filter[hqCountryId]=7&sort=createdAt')).toBe(false);
    // Name, then id the other way: no index reads that order.
    expect(repeats('filter[hqCountryId]=7&sort=name,-id')).toBe(false);
    expect(repeats('filter[hqCountryId][in]=7,8&sort=name')).toBe(false);
    expect(repeats('filter[hqCountryId]=7&filter[name][startsWith]=a&sort=name')).toBe(false);
    expect(repeats('filter[hqCountryId][isNull]=true&sort=name')).toBe(false);
    expect(repeats('filter[name]=Acme&sort=name')).toBe(false);
    expect(repeats('filter[hqCountryId]=7&sort=name&q=acme')).toBe(false);
    expect(repeats('q=acme')).toBe(false);
  });

  it('names a ranked search of the whole table read through the trigram indexes alone (decision 0052)', () => {
    const repeatsAs = (queryString: string, search: 'walk' | 'fewMatches', scope?: Parameters<typeof repeats>[2]) =>
      repeatsItsPlan(
        companies,
        parseListQueryString(companies, Object.fromEntries(new URLSearchParams(queryString))),
        scope,
        search,
      );
    expect(repeatsAs('q=acme', 'fewMatches')).toBe(true);
    expect(repeatsAs('q=acme&pageSize=20&page=3', 'fewMatches')).toBe(true);
    // Read by the bounded walk, whose reads depend on how many rows match.
    expect(repeatsAs('q=acme', 'walk')).toBe(false);
    // Beside a filter or a scope: planned per value.
    expect(repeatsAs('q=acme&filter[hqCountryId]=7', 'fewMatches')).toBe(false);
    expect(repeatsAs('q=acme', 'fewMatches', { where: sql`true` })).toBe(false);
  });

  it('keeps the plan of a record’s related rows read through an index that leads with its reference', () => {
    // states: an index on (countryId, name, id).
    const scope = relationScope(countries, 'states', 5);
    expect(repeats('sort=name', states, scope)).toBe(true);
    expect(repeats('sort=-name', states, scope)).toBe(true);
    expect(repeats('sort=code', states, scope)).toBe(false);
    // The same field equal twice, by the scope and by a filter: planned per value.
    expect(repeats('filter[countryId]=5&sort=name', states, scope)).toBe(false);
    // A scope that says nothing of its fields (a limited reader's rows) is planned per value.
    expect(repeats('sort=name', states, { where: sql`true` })).toBe(false);
  });
});

describe('which named statements are planned once for every value (decisions 0054, 0055)', () => {
  it('takes every list PostgreSQL names without a search', () => {
    expect(plannedOnce({}, true, 'postgres')).toBe(true);
    expect(plannedOnce({}, false, 'postgres')).toBe(false);
    // PGlite names no statement: it plans each one for the values it sees.
    expect(plannedOnce({}, true, 'pglite')).toBe(false);
    expect(plannedOnce({ q: 'abc' }, true, 'pglite')).toBe(false);
  });

  it('takes the terms that hold a trigram, three letters or digits in a row', () => {
    expect(plannedOnce({ q: 'abc' }, true, 'postgres')).toBe(true);
    expect(plannedOnce({ q: 'Nova Ltd' }, true, 'postgres')).toBe(true);
    expect(plannedOnce({ q: 'x 2024' }, true, 'postgres')).toBe(true);
  });

  it('plans per pattern a term with no trigram to look up, and any statement left unnamed', () => {
    // Two letters: both trigram indexes read whole on a generic plan.
    expect(plannedOnce({ q: 'qz' }, true, 'postgres')).toBe(false);
    expect(plannedOnce({ q: 'ab c d' }, true, 'postgres')).toBe(false);
    expect(plannedOnce({ q: 'a%b_c' }, true, 'postgres')).toBe(false);
    expect(plannedOnce({ q: 'abc' }, false, 'postgres')).toBe(false);
  });
});
