import { requiredPermissions } from '@data-platform/shared/entities/access';
import type { AccessAction } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import type { CurrentUser } from '../store/auth-slice.ts';
import { useAppSelector } from '../store/hooks.ts';
import { holds } from './access.ts';
import { listPathOf } from './resource-routes.ts';

/**
 * The spec's route table: the resources whose records have a show page
 * (`/{entity}/{id}/show`), and whether they are edited on a page
 * (`/{entity}/{id}/edit`, created in the generic modal) or in a modal of their own.
 */
const recordScreens = {
  companies: 'page',
  funds: 'page',
  contacts: 'page',
  firms: 'page',
  deals: 'page',
  investors: 'page',
  users: 'modal',
} as const satisfies Record<string, 'page' | 'modal'>;

type EditedAs = (typeof recordScreens)[keyof typeof recordScreens];

/** The resources shown, edited and created by the generic record screens. */
export const recordPageResources = (Object.keys(recordScreens) as (keyof typeof recordScreens)[]).filter(
  (resource) => recordScreens[resource] === 'page',
);

function editedAs(resource: string): EditedAs | undefined {
  return Object.hasOwn(recordScreens, resource) ? recordScreens[resource as keyof typeof recordScreens] : undefined;
}

/** True for the resources of the generic show page, edit page and create modal. */
export function hasRecordPages(resource: string): boolean {
  return editedAs(resource) === 'page';
}

/** True when the resource's records are edited in a modal (`?edit=<id>` over its list). */
export function editsInModal(resource: string): boolean {
  return editedAs(resource) === 'modal';
}

/**
 * `/companies/7/show`, `/companies/7/edit`; a modal edit is `/users?edit=7`;
 * undefined for resources without such screens.
 */
export function recordPath(resource: string, id: number | string, mode: 'show' | 'edit'): string | undefined {
  const list = listPathOf(resource);
  const edited = editedAs(resource);
  if (!list || !edited) return undefined;
  if (mode === 'edit' && edited === 'modal') return `${list}?edit=${id}`;
  return `${list}/${id}/${mode}`;
}

/** True when the user's role allows the action on the resource (the API checks it again). */
export function mayDo(user: CurrentUser | undefined, resource: string, action: AccessAction): boolean {
  const entity = findEntity(resource);
  return entity !== undefined && holds(user, requiredPermissions(entity, action));
}

/** `may('update')`: what the signed-in user's role allows on a resource. */
export function useMay(resource: string): (action: AccessAction) => boolean {
  const user = useAppSelector((state) => state.auth.currentUser?.user);
  return (action) => mayDo(user, resource, action);
}
