import { clientStateEntities } from '@data-platform/shared/entities/registry';
import { COUNTRIES_PAGE_SIZE } from '../constants.ts';
import { customFieldsApi } from './custom-fields-area.ts';
import { createResourceApi, type ListArgs, type ResourceApi } from './resource-api.ts';

export type { Row } from './resource-api.ts';

/**
 * The record data areas of the state: one per entity the web app keeps in
 * client state (the spec's companies, funds, contacts... and any entity added
 * later without `clientState: false`), each the RTK Query cache of that
 * resource, mounted under the resource's name.
 */
export const resourceAreas: readonly string[] = clientStateEntities.map((entity) => entity.name);
/** A resource with a data area of its own (named as the resource). */
export type ResourceArea = string;

export function isResourceArea(name: string): boolean {
  return Object.hasOwn(resourceApis, name);
}

const resourceApis: Readonly<Record<ResourceArea, ResourceApi>> = Object.fromEntries(
  resourceAreas.map((name) => [name, createResourceApi(name)]),
);

/** The RTK Query api of a resource's data area. */
export function resourceApi(resource: string): ResourceApi {
  if (!Object.hasOwn(resourceApis, resource)) throw new Error(`No data area for ${resource}`);
  return resourceApis[resource] as ResourceApi;
}

/** Every RTK Query api that holds server data, the resources' and the custom fields'. */
export const dataApis: readonly (ResourceApi | typeof customFieldsApi)[] = [
  ...Object.values(resourceApis),
  customFieldsApi,
];

/** The spec's start-up fetch of the countries: states joined by id and name, page 1 of 300, four fields. */
export const countriesList: ListArgs = {
  params: [
    ['join', 'states(id,name)'],
    ['page', '1'],
    ['pageSize', String(COUNTRIES_PAGE_SIZE)],
    ['select', 'name,phoneCode,emoji,createdAt'],
  ],
};

/**
 * The countries with their states, fetched once per session through the
 * countries area's get-all (kept while the session lasts: nothing unsubscribes).
 */
export const loadCountries = () => resourceApi('countries').endpoints.list.initiate(countriesList);
