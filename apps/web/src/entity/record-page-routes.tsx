import { data, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { i18n } from '../i18n/i18n.ts';
import type { CurrentUser } from '../store/auth-slice.ts';
import { editPageResources, mayDo, showPageResources } from './record-routes.ts';
import { listPathOf } from './resource-routes.ts';

/**
 * `/{entity}/{id}/show` and `/{entity}/{id}/edit` of the resources shown and
 * edited on the generic pages, as lazy routes; the loader refuses what the
 * role does not allow.
 */
export function recordPageRoutes(requireUser: (args: LoaderFunctionArgs) => Promise<CurrentUser>): RouteObject[] {
  const allowed = (resource: string, action: 'read' | 'update') => async (args: LoaderFunctionArgs) => {
    if (!mayDo(await requireUser(args), resource, action)) {
      throw data(null, { status: 403, statusText: i18n.t('errors:forbidden') });
    }
    return null;
  };
  const page = (resource: string, mode: 'show' | 'edit'): RouteObject[] => {
    const list = listPathOf(resource)?.slice(1);
    if (!list) return [];
    return [
      {
        path: `${list}/:id/${mode}`,
        loader: allowed(resource, mode === 'show' ? 'read' : 'update'),
        lazy: async () => {
          if (mode === 'edit') {
            const { EditPage } = await import('./edit-page.tsx');
            return { element: <EditPage key={resource} resource={resource} /> };
          }
          const { ShowPage } = await import('./show-page.tsx');
          return { element: <ShowPage key={resource} resource={resource} /> };
        },
      },
    ];
  };
  return [
    ...showPageResources.flatMap((resource) => page(resource, 'show')),
    ...editPageResources.flatMap((resource) => page(resource, 'edit')),
  ];
}
