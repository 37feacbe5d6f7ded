import {
  type CustomFieldDefinition,
  customFieldGroups,
  definitionFields,
  entityFieldTypes,
} from '@data-platform/shared/entities/custom-fields';
import type { ListResponse } from '@data-platform/shared/query/list-query';
import { createApi } from '@reduxjs/toolkit/query/react';
import { baseQuery } from './base-query.ts';
import { queryString } from './http.ts';

/** A group of custom fields, as the show page titles it. */
export interface CustomFieldGroup {
  id: number;
  entity: string;
  name: string;
  position: number | null;
}

/** More custom fields and groups than any team defines; one page holds them all. */
const ALL = '1000';

/** The resources whose records the custom fields area is made of: a write to either reads it again. */
export const customFieldsSources: readonly string[] = [entityFieldTypes.name, customFieldGroups.name];

/**
 * The spec's customFields area: every custom field definition and group, as
 * the forms, lists and show pages of the customisable entities use them.
 * Fetched once, and again when a definition or a group is written (see
 * invalidation.ts).
 */
export const customFieldsApi = createApi({
  reducerPath: 'customFields',
  baseQuery,
  tagTypes: ['List'],
  // A read again asked while a read of the area is under way waits for it, then goes: a write during a
  // list's read is never lost (RTK Query's default, named because resource-slices.test.ts relies on it).
  invalidationBehavior: 'delayed',
  endpoints: (build) => ({
    customFieldDefinitions: build.query<CustomFieldDefinition[], void>({
      query: () => ({
        path: `/${entityFieldTypes.name}?${queryString([
          ['select', definitionFields.join(',')],
          ['sort', 'id'],
          ['pageSize', ALL],
        ])}`,
      }),
      transformResponse: (answer: ListResponse<CustomFieldDefinition>) => answer.data,
      providesTags: ['List'],
    }),
    customFieldGroups: build.query<CustomFieldGroup[], void>({
      query: () => ({
        path: `/${customFieldGroups.name}?${queryString([
          ['select', 'entity,name,position'],
          ['sort', 'position'],
          ['pageSize', ALL],
        ])}`,
      }),
      transformResponse: (answer: ListResponse<CustomFieldGroup>) => answer.data,
      providesTags: ['List'],
    }),
  }),
});

export const { useCustomFieldDefinitionsQuery, useCustomFieldGroupsQuery } = customFieldsApi;
