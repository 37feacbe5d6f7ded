import {
  type CustomFieldDefinition,
  customFieldGroups,
  definitionFields,
  entityFieldTypes,
  isCustomizable,
  withCustomFields,
} from '@data-platform/shared/entities/custom-fields';
import type { EntityDescription } from '@data-platform/shared/entities/entity';
import type { ListResponse } from '@data-platform/shared/query/list-query';
import { useMemo } from 'react';
import { queryString } from '../store/http.ts';
import { recordApi } from './record-api.ts';
import { describedEntity } from './resource-routes.ts';

/** A group of custom fields, as the show page titles it. */
export interface CustomFieldGroup {
  id: number;
  entity: string;
  name: string;
  position: number | null;
}

/** More custom fields and groups than any team defines; one page holds them all. */
const ALL = '1000';

/**
 * The custom field definitions and their groups, fetched once and again
 * whenever a record of either is written (the record calls invalidate the
 * resource's tag).
 */
const customFieldsApi = recordApi.injectEndpoints({
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
      providesTags: [{ type: 'Resource', id: entityFieldTypes.name }],
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
      providesTags: [{ type: 'Resource', id: customFieldGroups.name }],
    }),
  }),
});

export const { useCustomFieldGroupsQuery } = customFieldsApi;

/**
 * The resource's description with its custom fields, and whether they have
 * arrived: a form or list built before would miss them, so screens wait for
 * `ready`. Resources without custom fields are ready at once.
 */
export function useEntity(resource: string): { entity: EntityDescription; ready: boolean } {
  const base = describedEntity(resource);
  const customizable = isCustomizable(base);
  const { data, isError } = customFieldsApi.useCustomFieldDefinitionsQuery(undefined, { skip: !customizable });
  return useMemo(
    () => ({
      entity: data ? withCustomFields(base, data) : base,
      // Without the definitions (the call failed and said so), the built-in fields still work.
      ready: !customizable || data !== undefined || isError,
    }),
    [base, customizable, data, isError],
  );
}
