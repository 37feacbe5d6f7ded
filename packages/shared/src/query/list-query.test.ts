import { describe, expect, it } from 'vitest';
import { companies } from '../entities/companies.ts';
import { countries } from '../entities/countries.ts';
import { type CustomFieldDefinition, withCustomFields } from '../entities/custom-fields.ts';
import type { EntityDescription } from '../entities/entity.ts';
import { funds } from '../entities/funds.ts';
import { notes } from '../entities/notes.ts';
import { filterValueSchema } from '../fields/value-schemas.ts';
import {
  type FieldErrors,
  MAX_CONDITIONS,
  MAX_FILTER_DEPTH,
  MAX_PAGE_SIZE,
  parseCondition,
  parseGetQuery,
  parseListBody,
  parseListQueryString,
  parseSort,
  QueryError,
  splitTopLevel,
} from './list-query.ts';

/** The QueryError fields a call throws. */
function queryErrorOf(run: () => unknown): FieldErrors {
  try {
    run();
  } catch (error) {
    if (error instanceof QueryError) return error.fields;
    throw error;
  }
  throw new Error('Expected a QueryError');
}

describe('splitTopLevel', () => {
  it('splits on commas outside parentheses only', () => {
    expect(splitTopLevel('states(id,name),hqCountry(name),owner')).toEqual([
      'states(id,name)',
      'hqCountry(name)',
      'owner',
    ]);
  });

  it('trims parts and drops empty ones', () => {
    expect(splitTopLevel(' a , ,b(c, d) ,')).toEqual(['a', 'b(c, d)']);
    expect(splitTopLevel('')).toEqual([]);
    expect(splitTopLevel(',,,')).toEqual([]);
  });

  it('keeps nested parentheses together', () => {
    expect(splitTopLevel('a(b(c,d),e),f')).toEqual(['a(b(c,d),e)', 'f']);
  });
});

describe('parseSort', () => {
  it("uses the entity's default sort with id as the tie-break in the same direction", () => {
    const errors: FieldErrors = {};
    expect(parseSort(companies, undefined, errors)).toEqual([
      { field: 'name', dir: 'asc' },
      { field: 'id', dir: 'asc' },
    ]);
    expect(parseSort(notes, '', errors)).toEqual([
      { field: 'createdAt', dir: 'desc' },
      { field: 'id', dir: 'desc' },
    ]);
    expect(parseSort(companies, '   ', errors)).toEqual([
      { field: 'name', dir: 'asc' },
      { field: 'id', dir: 'asc' },
    ]);
    expect(errors).toEqual({});
  });

  it('reads several keys with - for descending and + or nothing for ascending', () => {
    const errors: FieldErrors = {};
    expect(parseSort(companies, 'stage,-revenue,+city', errors)).toEqual([
      { field: 'stage', dir: 'asc' },
      { field: 'revenue', dir: 'desc' },
      { field: 'city', dir: 'asc' },
      { field: 'id', dir: 'asc' },
    ]);
    expect(parseSort(companies, 'stage,-name', errors).at(-1)).toEqual({ field: 'id', dir: 'desc' });
    expect(errors).toEqual({});
  });

  it('drops repeated keys and stops at an explicit id, which already makes the order total', () => {
    const errors: FieldErrors = {};
    expect(parseSort(companies, 'name,-name', errors)).toEqual([
      { field: 'name', dir: 'asc' },
      { field: 'id', dir: 'asc' },
    ]);
    expect(parseSort(companies, '-id,name', errors)).toEqual([{ field: 'id', dir: 'desc' }]);
    expect(parseSort(companies, 'stage,id,name', errors)).toEqual([
      { field: 'stage', dir: 'asc' },
      { field: 'id', dir: 'asc' },
    ]);
    expect(errors).toEqual({});
  });

  it('names unknown and unsortable fields', () => {
    const unknown: FieldErrors = {};
    parseSort(companies, 'name,nope', unknown);
    expect(unknown.sort).toMatch(/nope/);
    const unsortable: FieldErrors = {};
    parseSort(companies, 'tags', unsortable);
    expect(unsortable.sort).toMatch(/tags cannot be sorted/);
  });

  it('names every unknown field, not only the last', () => {
    const errors: FieldErrors = {};
    parseSort(companies, 'first,-second', errors);
    expect(errors.sort).toMatch(/first/);
    expect(errors.sort).toMatch(/second/);
  });
});

describe('parseCondition', () => {
  const parse = (field: string, op: string, raw: unknown, entity: EntityDescription = companies) => {
    const errors: FieldErrors = {};
    const condition = parseCondition(entity, field, op, raw, 'key', errors);
    return { condition, error: errors.key };
  };

  it('reads values as the field type says', () => {
    expect(parse('employees', 'gte', '10').condition).toEqual({ field: 'employees', op: 'gte', value: 10 });
    expect(parse('revenue', 'lt', '1.5e6').condition?.value).toBe(1_500_000);
    expect(parse('employees', 'in', '1,2,3').condition?.value).toEqual([1, 2, 3]);
    expect(parse('stage', 'in', ['Seed', 'Series A']).condition?.value).toEqual(['Seed', 'Series A']);
    expect(parse('createdAt', 'gte', '2024-01-01').condition?.value).toBe('2024-01-01');
    expect(parse('name', 'isNull', '').condition).toEqual({ field: 'name', op: 'isNull' });
    expect(parse('name', 'notNull', true).condition).toEqual({ field: 'name', op: 'notNull' });
    expect(parse('employees', 'eq', 42).condition?.value).toBe(42);
  });

  it('refuses an unknown field, an unfilterable field and an unknown operator', () => {
    expect(parse('nope', 'eq', 'x').error).toBe('Unknown field nope');
    expect(parse('linkedinUrl', 'eq', 'x').error).toBe('Field linkedinUrl cannot be filtered');
    expect(parse('name', 'like', 'x').error).toMatch(/^Unknown operator like/);
  });

  it('refuses an operator that does not apply to the type', () => {
    expect(parse('employees', 'contains', '3').error).toMatch(/contains does not apply to employees/);
    expect(parse('stage', 'gt', 'Seed').error).toMatch(/gt does not apply to stage/);
    expect(parse('tags', 'eq', 'x').error).toMatch(/eq does not apply to tags/);
    expect(parse('description', 'eq', 'x').error).toMatch(/eq does not apply to description/);
  });

  it('refuses values of the wrong kind', () => {
    expect(parse('employees', 'eq', 'many').error).toBe('Expected a whole number');
    expect(parse('employees', 'eq', '1.5').error).toBe('Expected a whole number');
    expect(parse('revenue', 'gt', 'lots').error).toBe('Expected a number');
    expect(parse('revenue', 'gt', '1e400').error).toBe('Expected a number');
    expect(parse('stage', 'eq', 'Series Z').error).toMatch(/^Expected one of/);
    expect(parse('createdAt', 'lt', 'yesterday').error).toBe('Expected a date or date and time in ISO 8601');
    expect(parse('firstCloseDate', 'lt', '2024-13-01', funds).error).toBe('Expected a date as YYYY-MM-DD');
    expect(parse('currency', 'eq', 'usd', funds).error).toMatch(/ISO 4217/);
    expect(parse('employees', 'in', '1,x,3').error).toBe('Expected a whole number');
  });

  it('refuses an empty value for a number instead of reading it as 0', () => {
    expect(parse('employees', 'eq', '').error).toBe('Expected a whole number');
    expect(parse('revenue', 'gt', ' ').error).toBe('Expected a number');
    expect(parse('employees', 'in', '1,,3').error).toBe('Expected a whole number');
  });

  it('refuses values where none or one is expected', () => {
    expect(parse('name', 'isNull', 'x').error).toBe('Operator isNull takes no value');
    expect(parse('name', 'eq', ['a', 'b']).error).toBe('Operator eq takes one value');
    expect(parse('name', 'contains', '').error).toBe('Expected some text');
    expect(parse('name', 'in', []).error).toBe('Expected between 1 and 1000 values');
    expect(
      parse(
        'name',
        'in',
        Array.from({ length: 1001 }, (_, i) => String(i)),
      ).error,
    ).toBe('Expected between 1 and 1000 values');
  });

  it("reads with each field's schema built once, and a custom field's new options at once", () => {
    const stage = companies.fields.stage;
    if (!stage) throw new Error('companies have a stage');
    expect(filterValueSchema(stage)).toBe(filterValueSchema(stage));
    const source = (options: string[]): CustomFieldDefinition[] => [
      { id: 7, entity: 'companies', name: 'Source', key: 'cf7', type: 'select', options },
    ];
    // Each new definitions list (the cache reloads them when a field changes) describes the field anew.
    const before = withCustomFields(companies, source(['Referral']));
    const after = withCustomFields(companies, source(['Referral', 'Inbound']));
    expect(parse('cf7', 'eq', 'Referral', before).condition?.value).toBe('Referral');
    expect(parse('cf7', 'eq', 'Inbound', before).error).toBe('Expected one of: Referral');
    expect(parse('cf7', 'eq', 'Inbound', after).condition?.value).toBe('Inbound');
    expect(parse('cf7', 'eq', 'Inbound', before).error).toBe('Expected one of: Referral');
  });
});

describe('parseListQueryString', () => {
  it('reads filter[field]=value as eq and filter[field][op]=value as that operator', () => {
    const query = parseListQueryString(companies, {
      'filter[stage]': 'Seed',
      'filter[employees][gte]': '10',
    });
    expect(query.where).toEqual({
      and: [
        { field: 'stage', op: 'eq', value: 'Seed' },
        { field: 'employees', op: 'gte', value: 10 },
      ],
    });
  });

  it('applies defaults', () => {
    const query = parseListQueryString(companies, {});
    expect(query).toMatchObject({ page: 1, pageSize: 50, join: [], sortGiven: false });
    expect(query.select).toBeUndefined();
    expect(query.where).toBeUndefined();
  });

  it('joins a relation with its display field when no fields are named', () => {
    const query = parseListQueryString(countries, { join: 'states', select: 'name' });
    expect(query.join).toEqual([{ relation: 'states', target: 'states', fields: ['name'] }]);
  });

  it('names each bad parameter', () => {
    const fields = queryErrorOf(() =>
      parseListQueryString(companies, {
        select: 'name,bogus',
        join: 'hqCountry(nope)',
        'filter[ghost][eq]': 'x',
        other: '1',
      }),
    );
    expect(fields).toEqual({
      select: 'Unknown field bogus',
      'join[hqCountry]': 'Unknown field nope',
      'filter[ghost][eq]': 'Unknown field ghost',
      other: 'Unknown parameter other',
    });
    expect(queryErrorOf(() => parseListQueryString(companies, { pageSize: String(MAX_PAGE_SIZE + 1) }))).toHaveProperty(
      'pageSize',
    );
    expect(queryErrorOf(() => parseListQueryString(companies, { join: 'ghosts(name)' }))).toEqual({
      join: 'Unknown relation ghosts',
    });
  });
});

describe('parseListBody', () => {
  it('reads nested and/or groups', () => {
    const query = parseListBody(companies, {
      where: {
        or: [{ field: 'stage', op: 'eq', value: 'Seed' }, { and: [{ field: 'employees', op: 'gt', value: 5 }] }],
      },
    });
    expect(query.where).toEqual({
      or: [{ field: 'stage', op: 'eq', value: 'Seed' }, { and: [{ field: 'employees', op: 'gt', value: 5 }] }],
    });
  });

  it('names a bad condition by its path', () => {
    const fields = queryErrorOf(() =>
      parseListBody(companies, { where: { and: [{ or: [{ field: 'employees', op: 'eq', value: 'x' }] }] } }),
    );
    expect(fields).toEqual({ 'where.and[0].or[0].employees': 'Expected a whole number' });
  });

  it('limits depth and the number of conditions', () => {
    const deep = { and: [{ and: [{ and: [{ and: [{ and: [{ field: 'name', op: 'eq', value: 'x' }] }] }] }] }] };
    expect(queryErrorOf(() => parseListBody(companies, { where: deep }))).toHaveProperty('where');
    const many = { or: Array.from({ length: 26 }, () => ({ and: [{ field: 'name', op: 'eq', value: 'x' }] })) };
    const wide = { and: [many, many] };
    expect(queryErrorOf(() => parseListBody(companies, { where: wide })).where).toBe(
      `At most ${MAX_CONDITIONS} conditions and ${MAX_CONDITIONS} groups`,
    );
    const emptyGroups = { or: Array.from({ length: MAX_CONDITIONS }, () => ({ and: [] })) };
    expect(queryErrorOf(() => parseListBody(companies, { where: emptyGroups })).where).toMatch(/^At most/);
  });

  it('refuses a where nested thousands deep with the limit, without overflowing the stack', () => {
    for (const levels of [MAX_FILTER_DEPTH + 1, 1_000, 100_000]) {
      let where: unknown = { field: 'name', op: 'eq', value: 'x' };
      for (let i = 0; i < levels; i++) where = i % 2 ? { and: [where] } : { or: [where] };
      expect(queryErrorOf(() => parseListBody(companies, { where }))).toEqual({
        where: `Groups nest at most ${MAX_FILTER_DEPTH} deep`,
      });
    }
    let allowed: unknown = { field: 'name', op: 'eq', value: 'x' };
    for (let i = 0; i < MAX_FILTER_DEPTH; i++) allowed = { and: [allowed] };
    expect(parseListBody(companies, { where: allowed }).where).toEqual(allowed);
  });

  it('takes an in list of up to 1000 values, whichever key comes first', () => {
    const value = Array.from({ length: 1000 }, (_, i) => `Name ${i}`);
    const query = parseListBody(companies, { where: { and: [{ value, field: 'name', op: 'in' }] } });
    expect(query.where).toEqual({ and: [{ field: 'name', op: 'in', value }] });
    expect(
      queryErrorOf(() => parseListBody(companies, { where: { value: [...value, 'x'], field: 'name', op: 'in' } })),
    ).toEqual({ 'where.name': 'Expected between 1 and 1000 values' });
  });

  it('refuses unknown body properties', () => {
    expect(queryErrorOf(() => parseListBody(companies, { limit: 5 }))).toHaveProperty('query');
  });
});

describe('joins', () => {
  it('joins a relation named many times once, with the fields of each', () => {
    const join = Array.from({ length: 300 }, (_, i) => (i % 2 ? 'hqCountry(name)' : 'hqCountry(iso2)')).join(',');
    expect(parseListQueryString(companies, { join }).join).toEqual([
      { relation: 'hqCountry', target: 'countries', fields: ['iso2', 'name'] },
    ]);
  });
});

describe('parseGetQuery', () => {
  it('names unknown fields in select and join', () => {
    expect(queryErrorOf(() => parseGetQuery(companies, { select: 'nope' }))).toEqual({ select: 'Unknown field nope' });
  });
});

describe('count', () => {
  it('asks for no total unless told, and reads each kind from the query string and the body', () => {
    expect(parseListQueryString(companies, {}).count).toBeUndefined();
    expect(parseListBody(companies, {}).count).toBeUndefined();
    for (const count of ['exact', 'planned', 'estimated'] as const) {
      expect(parseListQueryString(companies, { count }).count).toBe(count);
      expect(parseListBody(companies, { count }).count).toBe(count);
    }
  });

  it('refuses any other kind, naming the parameter beside the others that are wrong', () => {
    const expected = 'Expected one of exact, planned, estimated';
    expect(queryErrorOf(() => parseListQueryString(companies, { count: 'all' }))).toEqual({ count: expected });
    expect(queryErrorOf(() => parseListQueryString(companies, { count: ['exact', 'planned'] }))).toEqual({
      count: expected,
    });
    expect(queryErrorOf(() => parseListBody(companies, { count: true, pageSize: 0 }))).toEqual({
      count: expected,
      pageSize: expect.any(String),
    });
    expect(queryErrorOf(() => parseListBody(companies, { count: 'Exact' }))).toEqual({ count: expected });
  });
});
