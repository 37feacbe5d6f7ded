import type { AccessAction } from '@data-platform/shared/entities/entity';
import type { CurrentUser } from '../store/auth-slice.ts';
import { useAppSelector } from '../store/hooks.ts';
import { can } from './access.ts';
import type { ManifestRoute } from './derive-entity-manifest.ts';
import { entityManifest } from './entity-manifest.ts';
import { listPathOf } from './resource-routes.ts';

type RecordScreens = ManifestRoute['records'];

/**
 * The resources with record screens and how (see `navigation.records` on the
 * descriptions, through the entity manifest): the spec's route table, and any
 * entity added since. All are created in a modal.
 */
const recordScreens: ReadonlyMap<string, RecordScreens> = new Map(
  entityManifest.routes.flatMap((route) => (route.records ? [[route.resource, route.records]] : [])),
);

const resourcesWith = (match: (screens: RecordScreens) => boolean) =>
  [...recordScreens].filter(([, screens]) => match(screens)).map(([resource]) => resource);

/** The resources of the generic show page. */
export const showPageResources = resourcesWith((screens) => screens.show === 'generic');
/** The resources of the generic edit page. */
export const editPageResources = resourcesWith((screens) => screens.edit === 'page');

function screensOf(resource: string): RecordScreens | undefined {
  return recordScreens.get(resource);
}

/** True for the resources of the route table (they have a show page and a create modal). */
export function hasRecordScreens(resource: string): boolean {
  return screensOf(resource) !== undefined;
}

/** True when the resource's records are edited in a modal (`?edit=<id>` over its list). */
export function editsInModal(resource: string): boolean {
  return screensOf(resource)?.edit === 'modal';
}

/**
 * `/companies/7/show`, `/companies/7/edit`; a modal edit is `/users?edit=7`;
 * undefined for resources without such screens.
 */
export function recordPath(resource: string, id: number | string, mode: 'show' | 'edit'): string | undefined {
  const list = listPathOf(resource);
  const screens = screensOf(resource);
  if (!list || !screens) return undefined;
  if (mode === 'edit' && screens.edit === 'modal') return `${list}?edit=${id}`;
  return `${list}/${id}/${mode}`;
}

/** True when the user's role allows the action on the resource (the API checks it again). */
export function mayDo(user: CurrentUser | undefined, resource: string, action: AccessAction): boolean {
  return can(user, resource, action);
}

/** `may('update')`: what the signed-in user's role allows on a resource. */
export function useMay(resource: string): (action: AccessAction) => boolean {
  const user = useAppSelector((state) => state.auth.currentUser?.user);
  return (action) => mayDo(user, resource, action);
}
