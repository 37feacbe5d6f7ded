import { data, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { i18n } from '../i18n/i18n.ts';
import type { CurrentUser } from '../store/auth-slice.ts';
import { editPageResources, mayDo, showPageResources } from './record-routes.ts';
import { listPathOf } from './resource-routes.ts';
import type { RecordHistoryParts, RecordSection } from './show-page.tsx';

/** A resource's own section of its show page, loaded with the page (see RecordSection). */
export type RecordSections = Partial<Record<string, () => Promise<RecordSection>>>;

/**
 * `/{entity}/{id}/show` and `/{entity}/{id}/edit` of the resources shown and
 * edited on the generic pages, as lazy routes; the loader refuses what the
 * role does not allow. A resource in `sections` adds its section to its show page;
 * `history` loads the record history's timeline and restore (features/history).
 */
export function recordPageRoutes(
  requireUser: (args: LoaderFunctionArgs) => Promise<CurrentUser>,
  sections: RecordSections = {},
  history?: () => Promise<RecordHistoryParts>,
): RouteObject[] {
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
          const [{ ShowPage }, section, parts] = await Promise.all([
            import('./show-page.tsx'),
            sections[resource]?.(),
            history?.(),
          ]);
          return { element: <ShowPage key={resource} resource={resource} section={section} history={parts} /> };
        },
      },
    ];
  };
  return [
    ...showPageResources.flatMap((resource) => page(resource, 'show')),
    ...editPageResources.flatMap((resource) => page(resource, 'edit')),
  ];
}
