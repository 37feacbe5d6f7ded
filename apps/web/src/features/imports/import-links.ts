import type { ImportJob } from '@data-platform/shared/imports';
import { canImport, canRead } from '../../entity/access.ts';
import { JOB_PARAM } from '../../entity/import-modal.tsx';
import { availableResourceRoutes, type ResourceRoute } from '../../entity/resource-routes.ts';
import type { CurrentUser } from '../../store/auth-slice.ts';

/** The list screens whose Import button the user sees (the list's own rule), in sidebar order. */
export function importableLists(user: CurrentUser | undefined): ResourceRoute[] {
  return availableResourceRoutes.filter((route) => canRead(user, route.resource) && canImport(user, route.resource));
}

/**
 * The address that opens the wizard on a job: its records' list with `?import=<id>` (the list's Import
 * button reads it). None when the user has no such list: its kind has no list screen (notes, imported
 * through the API only), or the user may no longer read or import it.
 */
export function importJobPath(
  user: CurrentUser | undefined,
  job: Pick<ImportJob, 'id' | 'entity'>,
): string | undefined {
  const list = importableLists(user).find((route) => route.resource === job.entity);
  return list ? `${list.path}?${JOB_PARAM}=${job.id}` : undefined;
}
