import { companies } from '@data-platform/shared/entities/companies';
import { deals } from '@data-platform/shared/entities/deals';
import { describe, expect, it } from 'vitest';
import { queryString } from '../store/http.ts';
import type { Layout } from '../store/layouts-slice.ts';
import {
  apiValueOf,
  conditionsOf,
  customPathFor,
  filterChoices,
  filterParams,
  filtersOf,
  knownFieldsView,
  layoutHref,
  moveColumn,
  nextSort,
  slugOf,
  viewOf,
  viewParams,
} from './list-state.ts';

const search = (params: [string, string][]) => new URLSearchParams(params);

describe('filters in an address', () => {
  it('read the list grammar, eq by default, no value for isNull and notNull', () => {
    const read = filtersOf(
      new URLSearchParams('filter[stage][in]=Seed,Series A&filter[city]=Paris&filter[ownerId][isNull]=&select=name'),
    );
    expect(read).toEqual([
      { field: 'stage', op: 'in', value: 'Seed,Series A' },
      { field: 'city', op: 'eq', value: 'Paris' },
      { field: 'ownerId', op: 'isNull', value: undefined },
    ]);
  });

  it('skip unknown operators and other parameters', () => {
    expect(filtersOf(new URLSearchParams('filter[stage][like]=x&sort=name&q=a'))).toEqual([]);
  });

  it('write back what they read', () => {
    const filters = filtersOf(new URLSearchParams('filter[revenue][gte]=1000000&filter[domain][notNull]='));
    expect(queryString(filterParams(filters))).toBe('filter[revenue][gte]=1000000&filter[domain][notNull]=');
    expect(filtersOf(search(filterParams(filters)))).toEqual(filters);
  });
});

describe('a view in an address', () => {
  const view = {
    shows: ['name', 'stage', 'revenue'],
    filters: [{ field: 'stage', op: 'in' as const, value: 'Seed,Series A' }],
    sort: '-revenue,name',
    q: 'acme & co',
  };

  it('round-trips columns, filters, sort and search', () => {
    const text = queryString(viewParams(view));
    expect(text).toBe(
      'shows=name,stage,revenue&filter[stage][in]=Seed,Series%20A&sort=-revenue,name&q=acme%20%26%20co',
    );
    expect(viewOf(new URLSearchParams(text))).toEqual(view);
  });

  it('says "no filters" explicitly, so that a shared address does not pick up the reader’s defaults', () => {
    const text = queryString(viewParams({ ...view, filters: [] }));
    expect(text).toContain('filters=none');
    expect(viewOf(new URLSearchParams(text)).filters).toEqual([]);
  });

  it('leaves unsaid parts to the defaults', () => {
    expect(viewOf(new URLSearchParams('sort=name'))).toEqual({
      shows: undefined,
      filters: undefined,
      sort: 'name',
      q: '',
    });
  });

  it('opens a saved layout at its own path with its state, for someone who does not have it', () => {
    const layout: Layout = { pathId: 'p1', customPath: '/deals/views/big', name: 'Big', sort: '-amount' };
    expect(layoutHref(layout, deals.list.defaultShows, queryString)).toBe(
      `/deals/views/big?shows=${deals.list.defaultShows.join(',')}&filters=none&sort=-amount`,
    );
  });
});

describe('sorting by header', () => {
  it('cycles ascending, descending, off on a plain click, replacing other keys', () => {
    expect(nextSort('', 'name', false)).toBe('name');
    expect(nextSort('name', 'name', false)).toBe('-name');
    expect(nextSort('-name', 'name', false)).toBe('');
    expect(nextSort('-revenue,name', 'city', false)).toBe('city');
  });

  it('adds a key with shift-click and cycles it in place', () => {
    expect(nextSort('-revenue', 'name', true)).toBe('-revenue,name');
    expect(nextSort('-revenue,name', 'name', true)).toBe('-revenue,-name');
    expect(nextSort('-revenue,-name', 'name', true)).toBe('-revenue');
    expect(nextSort('-revenue,name', 'revenue', true)).toBe('name');
  });
});

describe('saved views', () => {
  it('get a readable path segment from their name', () => {
    expect(slugOf('Série A à Paris!')).toBe('serie-a-a-paris');
    expect(slugOf('  ')).toBe('view');
  });

  it('get a path of their own under the root path', () => {
    const taken = [
      { pathId: 'a', customPath: '/companies/views/seed', name: 'Seed' },
      { pathId: 'b', customPath: '/companies/views/seed-2', name: 'seed' },
    ];
    expect(customPathFor('/companies', 'Seed', taken)).toBe('/companies/views/seed-3');
    expect(customPathFor('/companies', 'Late stage', taken)).toBe('/companies/views/late-stage');
  });
});

describe('the column chooser', () => {
  it('reorders within the displayed fields', () => {
    expect(moveColumn(['name', 'stage', 'city'], ['tags'], 'city', 'shows', 0)).toEqual({
      shows: ['city', 'name', 'stage'],
      hidden: ['tags'],
    });
  });

  it('moves a field between displayed and hidden', () => {
    expect(moveColumn(['name', 'stage'], ['tags', 'city'], 'city', 'shows', 1)).toEqual({
      shows: ['name', 'city', 'stage'],
      hidden: ['tags'],
    });
    expect(moveColumn(['name', 'stage'], ['tags'], 'stage', 'hidden', 0)).toEqual({
      shows: ['name'],
      hidden: ['stage', 'tags'],
    });
  });
});

describe('filters by field type', () => {
  const fields = companies.fields;

  it('offer the operators that fit the type and that the API accepts', () => {
    expect(filterChoices(fields.name)).toEqual(['contains', 'startsWith', 'eq', 'isNull', 'notNull']);
    expect(filterChoices(fields.description)).toEqual(['contains', 'startsWith', 'isNull', 'notNull']);
    expect(filterChoices(fields.stage)).toEqual(['in', 'isNull', 'notNull']);
    expect(filterChoices(fields.revenue)).toEqual(['between', 'gte', 'lte', 'eq', 'isNull', 'notNull']);
    expect(filterChoices(fields.hqCountryId)).toEqual(['eq', 'isNull', 'notNull']);
    expect(filterChoices(fields.tags)).toEqual(['contains', 'isNull', 'notNull']);
    expect(filterChoices(deals.fields.expectedCloseDate)).toContain('between');
  });

  it('make a range of two bounds, one, or none', () => {
    expect(conditionsOf('revenue', 'between', '1000', '5000')).toEqual([
      { field: 'revenue', op: 'gte', value: '1000' },
      { field: 'revenue', op: 'lte', value: '5000' },
    ]);
    expect(conditionsOf('revenue', 'between', undefined, '5000')).toEqual([
      { field: 'revenue', op: 'lte', value: '5000' },
    ]);
    expect(conditionsOf('revenue', 'gte', undefined)).toEqual([]);
    expect(conditionsOf('ownerId', 'isNull')).toEqual([{ field: 'ownerId', op: 'isNull' }]);
  });
});

describe('bulk edit values', () => {
  it('are typed as the API takes them; empty clears', () => {
    expect(apiValueOf(companies.fields.employees, '250')).toBe(250);
    expect(apiValueOf(companies.fields.hqCountryId, '7')).toBe(7);
    expect(apiValueOf(companies.fields.stage, 'Seed')).toBe('Seed');
    expect(apiValueOf(companies.fields.city, '')).toBeNull();
    expect(apiValueOf({ type: 'boolean', label: 'Active' }, 'false')).toBe(false);
  });
});

describe('a view over the fields an entity has', () => {
  const fields = { name: {}, stage: {}, cf7: {} };

  it('keeps a view whose fields all exist as it is', () => {
    const view = { filters: [{ field: 'cf7', op: 'eq' as const, value: 'Referral' }], sort: '-cf7,name', q: '' };
    expect(knownFieldsView(view, fields)).toBe(view);
  });

  it('leaves out filters and sort keys on a deleted custom field, keeping the rest in order', () => {
    const view = {
      filters: [
        { field: 'cf9', op: 'eq' as const, value: 'Gone' },
        { field: 'stage', op: 'in' as const, value: 'Seed' },
      ],
      sort: 'stage,-cf9,name',
    };
    expect(knownFieldsView(view, fields)).toEqual({
      filters: [{ field: 'stage', op: 'in', value: 'Seed' }],
      sort: 'stage,name',
    });
  });
});
