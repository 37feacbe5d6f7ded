import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import { entities } from '@data-platform/shared/entities/registry';
import { sortKeyJson } from '@data-platform/shared/fields/field-types';
import { type ListQuery, parseListQueryString } from '@data-platform/shared/query/list-query';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { CompiledTexts } from './compiled-texts.ts';
import { listSql, orderKeys } from './list-compiler.ts';
import { shapedList } from './records.ts';
import { fieldOf, SEARCH_SEPARATOR } from './sql-fragments.ts';

const dialect = new PgDialect();

describe('CompiledTexts', () => {
  it('binds each value where its stand-in was, keeps the constants, and sends the same text string each time', () => {
    const texts = new CompiledTexts(10);
    const build = (v: readonly unknown[]) => sql`select ${'constant'} where a = ${v[0]} and b > ${v[1]} or a = ${v[0]}`;
    const first = texts.bind('k', ['x', 5], build);
    const second = texts.bind('k', ['y', 6], build);
    expect(first).toEqual({ text: 'select $1 where a = $2 and b > $3 or a = $4', params: ['constant', 'x', 5, 'x'] });
    expect(second?.params).toEqual(['constant', 'y', 6, 'y']);
    expect(second?.text).toBe(first?.text);
  });

  it('keeps no shape whose values do not all reach the statement as they are', () => {
    const texts = new CompiledTexts(10);
    // Written into the text, inside a longer parameter, or not used at all: each would be wrong bound again.
    expect(texts.bind('raw', ['x'], (v) => sql`select ${sql.raw(String(v[0]))}`)).toBeUndefined();
    expect(texts.bind('inside', ['x'], (v) => sql`select ${`%${String(v[0])}%`}`)).toBeUndefined();
    expect(texts.bind('unused', ['x', 'y'], (v) => sql`select ${v[0]}`)).toBeUndefined();
    // And says so again without building: the answer is kept.
    let built = 0;
    const counted = (v: readonly unknown[]) => {
      built++;
      return sql`select ${sql.raw(String(v[0]))}`;
    };
    texts.bind('counted', ['x'], counted);
    texts.bind('counted', ['x'], counted);
    expect(built).toBe(1);
  });

  it('keeps at most its size: the oldest shape leaves for a new one, and is built again, still right', () => {
    const texts = new CompiledTexts(2);
    let built = 0;
    const build = (v: readonly unknown[]) => {
      built++;
      return sql`select ${v[0]}`;
    };
    const keys = ['a', 'b', 'c', 'c', 'b', 'a'];
    const bound = keys.map((key) => texts.bind(key, [key], build)?.params);
    expect(bound).toEqual(keys.map((key) => [key]));
    // a, b and c each built once; c and b kept; a had left for c, so it is built again.
    expect(built).toBe(4);
    expect(texts.size).toBe(2);
  });
});

/** A value of a sort key's JSON type (what a cursor carries), or null. */
function cursorValue(entity: EntityDescription, field: string, i: number): unknown {
  switch (sortKeyJson(fieldOf(entity, field).type)) {
    case 'string':
      return `value ${i}`;
    case 'boolean':
      return i % 2 === 0;
    default:
      return 40 + i;
  }
}

/**
 * A whole-table list's statement bound from its kept shape is the statement
 * built anew for the same request, text and parameters: for every sortable
 * field of companies, contacts and investors (plain values, picklists by
 * their options' order, references by their record's label), each direction,
 * the first page, an offset page, and cursors with and without empty values.
 */
describe('lists bound from their shape', () => {
  const cases: { entity: EntityDescription; raw: Record<string, string> }[] = [];
  for (const name of ['companies', 'contacts', 'investors'] as const) {
    const entity = entities[name] as EntityDescription;
    const sortable = Object.entries(allFields(entity))
      .filter(([, f]) => (f as { sortable?: boolean }).sortable)
      .map(([key]) => key);
    expect(sortable.length).toBeGreaterThan(2);
    sortable.forEach((field, i) => {
      const second = sortable[(i + 1) % sortable.length] as string;
      for (const sort of [field, `-${field}`, `${field},-${second}`]) {
        // Two page sizes of one shape otherwise: the page size is a constant of the text.
        for (const pageSize of ['5', '9']) cases.push({ entity, raw: { sort, pageSize } });
        cases.push({ entity, raw: { sort, pageSize: '7', page: String(2 + i), select: `${entity.display},${field}` } });
      }
    });
  }

  it.each(cases.map((c) => [c.entity.name, c.raw.sort, c.raw.pageSize, c.raw.page ?? '1', c] as const))(
    '%s sorted by %s, %s rows, page %s and by cursor',
    (_entity, _sort, _size, _page, { entity, raw }) => {
      const query: ListQuery = parseListQueryString(entity, raw);
      const keys = orderKeys(entity, query);
      const sortFields = query.sort.map((k) => k.field);
      const cursors: (unknown[] | undefined)[] = [
        undefined,
        sortFields.map((f, i) => cursorValue(entity, f, i)),
        // Empty values where a key may be empty (never the id).
        sortFields.map((f, i) => (keys[i]?.nullable ? null : cursorValue(entity, f, i))),
        sortFields.map((f, i) => (keys[i]?.nullable && i > 0 ? null : cursorValue(entity, f, i + 3))),
      ];
      // And with the values out of the planner's sight (decision 0055): a text of its own.
      for (const unseen of [false, true]) {
        for (const cursor of cursors) {
          const page = shapedList(entity, query, cursor, 'walk', undefined, undefined, undefined, unseen);
          const bound = page.texts.bind(page.key, page.values, page.build);
          const { sql: text, params } = dialect.sqlToQuery(
            listSql(entity, query, cursor, undefined, 'walk', { unseen }),
          );
          expect(bound).toEqual({ text, params });
          // Bound a second time from the kept text: the same again.
          expect(page.texts.bind(page.key, page.values, page.build)).toEqual(bound);
        }
      }
    },
  );
});

/**
 * Filtered lists bound from their shape: every filter operator, in and/or
 * groups, each shape bound with two sets of values, is the statement built
 * anew for the same request (so that no value of the first request stays in
 * the kept text).
 */
describe('filtered lists bound from their shape', () => {
  const companies = entities.companies as EntityDescription;
  const conditions = (n: number): Record<string, string> => ({
    'filter[name][contains]': n ? 'a%b_c\\' : 'Nova',
    'filter[legalName][startsWith]': `Legal ${n}`,
    'filter[hqCountryId][eq]': String(10 + n),
    'filter[employees][gte]': String(5 * n),
    'filter[stage][in]': n ? 'Seed,Series A' : 'Growth',
    'filter[tags][contains]': `tag${n}`,
    'filter[industry][ne]': n ? 'Software' : 'Other',
    'filter[city][isNull]': 'true',
  });
  const shapes: ((n: number) => Record<string, string>)[] = [
    (n) => ({ 'filter[hqCountryId][eq]': String(10 + n), sort: 'name' }),
    (n) => ({ ...conditions(n), sort: '-employees', pageSize: '9' }),
    (n) => ({ ...conditions(n), page: '3', select: 'name,stage' }),
    // A condition that binds nothing before those that do.
    (n) => ({ 'filter[city][isNull]': 'true', 'filter[domain][notNull]': 'true', ...conditions(n) }),
  ];

  it.each(shapes.map((shape, i) => [i, shape] as const))(
    'shape %i, as and/or groups, by page and by cursor',
    (_i, shape) => {
      for (const n of [0, 1]) {
        const base = parseListQueryString(companies, shape(n));
        const parts = base.where && 'and' in base.where ? base.where.and : base.where ? [base.where] : [];
        const grouped: ListQuery = { ...base, where: { or: [{ and: parts.slice(0, 2) }, ...parts.slice(2)] } };
        for (const query of [base, grouped]) {
          const cursor = query.sort.map((key, i) => cursorValue(companies, key.field, i + n));
          for (const after of [undefined, cursor]) {
            for (const unseen of [false, true]) {
              const page = shapedList(companies, query, after, 'walk', undefined, undefined, undefined, unseen);
              const built = listSql(companies, query, after, undefined, 'walk', { unseen });
              const { sql: text, params } = dialect.sqlToQuery(built);
              expect(page.texts.bind(page.key, page.values, page.build)).toEqual({ text, params });
              // Out of sight, a country is bound through a subquery of its column's type.
              expect(text.includes('"hq_country_id" = (select $')).toBe(unseen);
            }
          }
        }
      }
    },
  );
});

/**
 * Searches bound from their shape: ranked (by rank, then the list's order)
 * and in an order the caller gave, with a filter or not, by either search
 * plan, a term holding the fields' separator, first pages, offset pages,
 * and cursors of every rank; each shape bound with two terms.
 */
describe('searches bound from their shape', () => {
  const companies = entities.companies as EntityDescription;
  const shapes: Record<string, string>[] = [
    {},
    { sort: 'name' },
    { sort: '-stage,city' },
    { 'filter[stage][in]': 'Seed,Growth' },
    { page: '4', pageSize: '9' },
    { page: '2', sort: 'city' },
  ];
  const terms = [
    ['nova', 'a%b_c'],
    ['ltd', `x${SEARCH_SEPARATOR}y`],
  ];

  it.each(shapes.map((shape) => [JSON.stringify(shape), shape] as const))('%s', (_name, shape) => {
    for (const plan of ['walk', 'fewMatches'] as const) {
      for (const pair of terms) {
        for (const q of pair) {
          const query = parseListQueryString(companies, { ...shape, q });
          const keys = orderKeys(companies, query);
          const sortFields = query.sort.map((k) => k.field);
          // A ranked cursor starts with the rank: each of the three (decodeCursor refuses any other).
          const rankedCursor = (rank: number) => [rank, ...sortFields.map((f, i) => cursorValue(companies, f, i))];
          const cursors: (unknown[] | undefined)[] =
            keys.length > sortFields.length
              ? [undefined, rankedCursor(0), rankedCursor(1), rankedCursor(2)]
              : [undefined, sortFields.map((f, i) => (keys[i]?.nullable ? null : cursorValue(companies, f, i)))];
          // And with the terms and offset out of the planner's sight (decision 0054): a text of its own.
          for (const unseen of [false, true]) {
            for (const after of cursors) {
              const page = shapedList(companies, query, after, plan, undefined, undefined, undefined, unseen);
              const built = listSql(companies, query, after, undefined, plan, { unseen });
              const { sql: text, params } = dialect.sqlToQuery(built);
              expect(page.texts.bind(page.key, page.values, page.build)).toEqual({ text, params });
              expect(text.includes('(select $1::text)')).toBe(unseen);
            }
          }
        }
      }
    }
  });
});
