import { requiredPermissions } from '@data-platform/shared/entities/access';
import type { AccessAction } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import type { CurrentUser } from '../store/auth-slice.ts';
import { useAppSelector } from '../store/hooks.ts';
import { holds } from './access.ts';
import { listPathOf } from './resource-routes.ts';

/** The resources whose records have a show page, an edit page and a create modal (the spec's route table). */
export const recordPageResources = ['companies', 'funds', 'contacts', 'firms', 'deals', 'investors'] as const;

export function hasRecordPages(resource: string): boolean {
  return (recordPageResources as readonly string[]).includes(resource);
}

/** `/companies/7/show`, `/companies/7/edit`; undefined for resources without record pages. */
export function recordPath(resource: string, id: number | string, mode: 'show' | 'edit'): string | undefined {
  const list = listPathOf(resource);
  return list && hasRecordPages(resource) ? `${list}/${id}/${mode}` : undefined;
}

/** True when the user may do the action on the resource (the API checks it again). */
export function mayDo(user: CurrentUser | undefined, resource: string, action: AccessAction): boolean {
  const entity = findEntity(resource);
  return entity !== undefined && holds(user, requiredPermissions(entity, action));
}

/** `may('update')`: what the signed-in user's role allows on a resource. */
export function useMay(resource: string): (action: AccessAction) => boolean {
  const user = useAppSelector((state) => state.auth.currentUser?.user);
  return (action) => mayDo(user, resource, action);
}
