import { describe, expect, it } from 'vitest';
import type { EntityDescription } from '../entities/entity.ts';
import { entities } from '../entities/registry.ts';
import type { FieldDescription } from '../fields/field-types.ts';
import { aggregatableFields, groupableFields, totalledPerCurrency } from './aggregate-fields.ts';
import { parseAggregatesQuery } from './aggregates.ts';
import { QueryError } from './list-query.ts';

const companies = entities.companies as EntityDescription;
const funds = entities.funds as EntityDescription;

function errorsOf(entity: EntityDescription, raw: Record<string, unknown>) {
  try {
    parseAggregatesQuery(entity, raw);
  } catch (error) {
    if (error instanceof QueryError) return error.fields;
    throw error;
  }
  throw new Error('Expected a QueryError');
}

describe('which fields total and group, from the descriptions', () => {
  it('totals quantities and money, not years, codes or system fields', () => {
    expect(aggregatableFields(companies)).toEqual(['employees', 'revenue', 'totalRaised']);
    expect(aggregatableFields(funds)).toEqual([
      'numberInSeries',
      'targetSize',
      'hardCap',
      'finalSize',
      'managementFeePct',
      'carryPct',
      'hurdlePct',
    ]);
  });

  it('totals money and amounts with a currency field per currency', () => {
    expect(totalledPerCurrency(companies.fields.revenue as FieldDescription)).toBe(true);
    expect(totalledPerCurrency(funds.fields.targetSize as FieldDescription)).toBe(true);
    expect(totalledPerCurrency(companies.fields.employees as FieldDescription)).toBe(false);
  });

  it('groups by picklists of one option, not by lists of options', () => {
    expect(groupableFields(companies)).toEqual(['industry', 'stage', 'status', 'ownership']);
    expect(groupableFields(funds)).toEqual(['strategy', 'status']);
  });
});

describe('parseAggregatesQuery', () => {
  it('reads fields, groupBy, filters and search with the list parser', () => {
    expect(
      parseAggregatesQuery(companies, {
        fields: 'employees, revenue',
        groupBy: 'stage',
        'filter[employees][gte]': '10',
        q: ' acme ',
      }),
    ).toEqual({
      fields: ['employees', 'revenue'],
      groupBy: 'stage',
      where: { field: 'employees', op: 'gte', value: 10 },
      q: 'acme',
    });
    expect(parseAggregatesQuery(companies, {})).toEqual({ fields: ['employees', 'revenue', 'totalRaised'] });
  });

  it('names each bad parameter', () => {
    expect(errorsOf(companies, { fields: 'employees,nope,other' })).toEqual({ fields: 'Unknown fields nope, other' });
    expect(errorsOf(companies, { fields: 'foundedYear' })).toEqual({
      fields: 'foundedYear cannot be totalled; fields with totals: employees, revenue, totalRaised',
    });
    expect(errorsOf(companies, { groupBy: 'tags', pageSize: '5' })).toEqual({
      groupBy: 'tags is not a picklist; group by one of industry, stage, status, ownership',
      pageSize: 'Unknown parameter pageSize',
    });
    expect(errorsOf(companies, { 'filter[stage][in]': 'Nope' })).toMatchObject({
      'filter[stage][in]': expect.any(String),
    });
  });
});
