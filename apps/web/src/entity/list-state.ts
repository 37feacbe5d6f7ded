import {
  type FieldDescription,
  type FilterChoice,
  type FilterOp,
  fieldTypeModule,
  filterOps,
} from '@data-platform/shared/fields/field-types';
import { slugOf } from '@data-platform/shared/saved-view-slug';
import type { FilterCondition, Layout } from '../store/layouts-slice.ts';

export { slugOf };

/** What a list shows: its columns, filters, sort (`-revenue,name`) and search text. */
export interface ListView {
  shows: string[];
  filters: FilterCondition[];
  sort: string;
  q: string;
}

const isFilterOp = (value: string): value is FilterOp => (filterOps as readonly string[]).includes(value);
const takesNoValue = (op: FilterOp) => op === 'isNull' || op === 'notNull';

/** The filters an address carries: `filter[stage][eq]=Seed`, `filter[stage]=Seed` (eq). */
export function filtersOf(search: URLSearchParams): FilterCondition[] {
  const filters: FilterCondition[] = [];
  for (const [key, value] of search) {
    const match = /^filter\[([A-Za-z0-9]+)\](?:\[([A-Za-z]+)\])?$/.exec(key);
    if (!match?.[1]) continue;
    const op = match[2] ?? 'eq';
    if (!isFilterOp(op)) continue;
    filters.push({ field: match[1], op, value: takesNoValue(op) ? undefined : value });
  }
  return filters;
}

/** The `filter[field][op]=value` pairs of conditions, as the API and the address read them. */
export function filterParams(filters: readonly FilterCondition[]): [string, string][] {
  return filters.map(({ field, op, value }) => [`filter[${field}][${op}]`, takesNoValue(op) ? '' : (value ?? '')]);
}

/** Which parts of a view an address states; the others come from the saved defaults. */
export interface AddressedView {
  shows?: string[];
  filters?: FilterCondition[];
  sort: string;
  q: string;
}

/** Reads a view from an address: `?shows=name,stage&sort=-revenue&q=acme&filter[stage][in]=Seed`. */
export function viewOf(search: URLSearchParams): AddressedView {
  const shows = search.get('shows');
  const filters = filtersOf(search);
  return {
    shows: shows ? shows.split(',').filter(Boolean) : undefined,
    filters: filters.length > 0 || search.has('filters') ? filters : undefined,
    sort: search.get('sort') ?? '',
    q: search.get('q') ?? '',
  };
}

/**
 * The address form of a view. `filters=none` stands for "no filters" so that
 * a shared address of an unfiltered view does not pick up the reader's defaults.
 */
export function viewParams(view: Partial<ListView>): [string, string][] {
  const params: [string, string][] = [];
  if (view.shows) params.push(['shows', view.shows.join(',')]);
  if (view.filters) {
    if (view.filters.length === 0) params.push(['filters', 'none']);
    params.push(...filterParams(view.filters));
  }
  if (view.sort) params.push(['sort', view.sort]);
  if (view.q) params.push(['q', view.q]);
  return params;
}

/** One key of a sort: `-revenue` → { field: 'revenue', desc: true }. */
export interface SortKey {
  field: string;
  desc: boolean;
}

export function sortKeys(sort: string): SortKey[] {
  return sort
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => ({ field: part.replace(/^[-+]/, ''), desc: part.startsWith('-') }));
}

export function sortText(keys: readonly SortKey[]): string {
  return keys.map(({ field, desc }) => (desc ? `-${field}` : field)).join(',');
}

/**
 * The view without the filters and sort keys on fields the entity no longer
 * has (a custom field deleted since a view was saved or an address shared),
 * which the API would refuse.
 */
export function knownFieldsView<V extends Pick<ListView, 'filters' | 'sort'>>(
  view: V,
  fields: Readonly<Record<string, unknown>>,
): V {
  const known = (field: string) => Object.hasOwn(fields, field);
  const filters = view.filters.filter((condition) => known(condition.field));
  const keys = sortKeys(view.sort);
  const sort = keys.every((key) => known(key.field)) ? view.sort : sortText(keys.filter((key) => known(key.field)));
  return filters.length === view.filters.length && sort === view.sort ? view : { ...view, filters, sort };
}

/**
 * The sort after a click on a column header: ascending, then descending, then
 * off. A plain click sorts by that column alone; with `add` (shift-click) the
 * column is added as the next key, or cycled where it is.
 */
export function nextSort(sort: string, field: string, add: boolean): string {
  const keys = sortKeys(sort);
  const current = keys.find((key) => key.field === field);
  const cycled: SortKey | undefined = !current
    ? { field, desc: false }
    : current.desc
      ? undefined
      : { field, desc: true };
  if (!add) return cycled ? sortText([cycled]) : '';
  if (!current) return sortText([...keys, { field, desc: false }]);
  return sortText(keys.flatMap((key) => (key.field !== field ? [key] : cycled ? [cycled] : [])));
}

/** `<rootPath>/views/<slug>`, made unique among the layouts already saved. */
export function customPathFor(rootPath: string, name: string, taken: readonly Layout[]): string {
  const base = `${rootPath}/views/${slugOf(name)}`;
  const used = new Set(taken.map((layout) => layout.customPath));
  let path = base;
  for (let n = 2; used.has(path); n++) path = `${base}-${n}`;
  return path;
}

/** The view a saved layout stands for, completed with the entity's defaults. */
export function viewOfLayout(layout: Layout, defaultShows: readonly string[]): ListView {
  return {
    shows: layout.shows ?? [...defaultShows],
    filters: layout.filters ?? [],
    sort: layout.sort ?? '',
    q: layout.q ?? '',
  };
}

/** A saved layout's own address, carrying its state so that it opens for anyone. */
export function layoutHref(
  layout: Layout,
  defaultShows: readonly string[],
  search: (params: [string, string][]) => string,
) {
  return `${layout.customPath}?${search(viewParams(viewOfLayout(layout, defaultShows)))}`;
}

/** Moves `name` within or between the shown and hidden lists; `index` is its place in the target list. */
export function moveColumn(
  shows: readonly string[],
  hidden: readonly string[],
  name: string,
  target: 'shows' | 'hidden',
  index: number,
): { shows: string[]; hidden: string[] } {
  const lists = { shows: shows.filter((n) => n !== name), hidden: hidden.filter((n) => n !== name) };
  const list = lists[target];
  list.splice(Math.max(0, Math.min(index, list.length)), 0, name);
  return lists;
}

/** What the filter form offers: the list grammar's operators, plus "between" for ranges (gte and lte). */
export type { FilterChoice } from '@data-platform/shared/fields/field-types';

/** The filter choices of a field, by its type; only operators the API accepts for that type. */
export function filterChoices(field: FieldDescription): FilterChoice[] {
  const { ops, filterChoices: choices } = fieldTypeModule(field.type);
  return choices.filter((choice) =>
    choice === 'between' ? ops.includes('gte') && ops.includes('lte') : ops.includes(choice),
  );
}

/** The conditions a filter choice makes: "between" makes up to two, an empty value none. */
export function conditionsOf(field: string, choice: FilterChoice, value?: string, to?: string): FilterCondition[] {
  if (choice === 'isNull' || choice === 'notNull') return [{ field, op: choice }];
  if (choice === 'between') {
    return [
      ...(value ? [{ field, op: 'gte' as const, value }] : []),
      ...(to ? [{ field, op: 'lte' as const, value: to }] : []),
    ];
  }
  return value ? [{ field, op: choice, value }] : [];
}

/** A value typed as text in a bulk edit, as the API takes it; empty text clears the field. */
export function apiValueOf(field: FieldDescription, text: string | undefined): unknown {
  if (text === undefined || text === '') return null;
  return fieldTypeModule(field.type).fromText(text);
}
