import { isCustomizable, withCustomFields } from '@data-platform/shared/entities/custom-fields';
import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { useMemo } from 'react';
import { useCustomFieldDefinitionsQuery } from '../store/custom-fields-area.ts';
import { describedEntity } from './described-entity.ts';

/**
 * The resource's description with its custom fields, and whether they have
 * arrived: a form or list built before would miss them, so screens wait for
 * `ready`. Resources without custom fields are ready at once.
 */
export function useEntity(resource: string): { entity: EntityDescription; ready: boolean } {
  const base = describedEntity(resource);
  const customizable = isCustomizable(base);
  const { data, isError } = useCustomFieldDefinitionsQuery(undefined, { skip: !customizable });
  return useMemo(
    () => ({
      entity: data ? withCustomFields(base, data) : base,
      // Without the definitions (the call failed and said so), the built-in fields still work.
      ready: !customizable || data !== undefined || isError,
    }),
    [base, customizable, data, isError],
  );
}
