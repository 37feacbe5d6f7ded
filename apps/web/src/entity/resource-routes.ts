import type { ResourceArea } from '../store/resource-slices.ts';
import { entityManifest } from './entity-manifest.ts';

/** A list screen in the sidebar: its root path and the resource it lists. */
export interface ResourceRoute {
  path: string;
  resource: ResourceArea;
  /** Translation key of the sidebar label when it is not the resource's plural name. */
  labelKey?: string;
  /** Reached from another screen, not from the sidebar. */
  sidebar?: false;
}

/** The list screens, in sidebar order: the descriptions' `navigation` (through the entity manifest). */
export const resourceRoutes: readonly ResourceRoute[] = entityManifest.routes.map(
  ({ path, resource, labelKey, sidebar }) => ({
    path,
    resource: resource as ResourceArea,
    ...(labelKey ? { labelKey } : {}),
    ...(sidebar === false ? { sidebar } : {}),
  }),
);

/** The list screens whose resource the API describes (custom data comes with its entity description). */
export const availableResourceRoutes = resourceRoutes.filter((route) =>
  Object.hasOwn(entityManifest.entities, route.resource),
);

/** The list screen of a resource, if it has one. */
export function listPathOf(resource: string): string | undefined {
  return availableResourceRoutes.find((route) => route.resource === resource)?.path;
}

/** `?filter[field][op]=value` for one condition, as the list grammar writes it. */
export function filterSearch(field: string, op: string, value?: string): string {
  return `?filter[${field}][${op}]${value === undefined ? '' : `=${encodeURIComponent(value)}`}`;
}
