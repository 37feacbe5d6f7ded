import type { SavedView } from '@data-platform/shared/saved-views';
import { useEffect, useRef } from 'react';
import { useAppDispatch, useAppSelector } from '../store/hooks.ts';
import { isApiFailure } from '../store/http.ts';
import { cacheLayouts, type Layout, removeLayout } from '../store/layouts-slice.ts';
import { useCreateSavedViewMutation, useSavedViewsQuery } from '../store/saved-views-api.ts';

const noLayouts: Layout[] = [];
/** Local layouts whose upload was tried in this page's life: each is tried once. */
const attempted = new Set<string>();

/** A view the server holds, as the layouts cache keeps it. */
export function layoutOfView(view: SavedView): Layout {
  return {
    pathId: `view-${view.id}`,
    customPath: `${view.rootPath}/views/${view.slug}`,
    name: view.name,
    shows: view.state.shows,
    filters: view.state.filters,
    sort: view.state.sort,
    q: view.state.q,
    server: { id: view.id, version: view.version, shared: view.shared, mine: view.mine, ownerName: view.ownerName },
  };
}

/** The server's form of a layout's state. */
export function stateOfLayout(layout: Pick<Layout, 'shows' | 'filters' | 'sort' | 'q'>) {
  return { shows: layout.shows, filters: layout.filters, sort: layout.sort, q: layout.q };
}

/** The slug of a layout's path (`/companies/views/seed` → `seed`). */
const slugOfPath = (customPath: string) => customPath.split('/').pop() ?? '';

/**
 * The saved views of a list: read from the server, kept in the layouts slice
 * (the local cache, which the list shows at once). Views saved in this browser
 * before views lived on the server are uploaded once, then the server's list
 * is the truth.
 */
export function useSavedViews(rootPath: string): Layout[] {
  const dispatch = useAppDispatch();
  const layouts = useAppSelector((state) => state.layouts.layouts[rootPath]) ?? noLayouts;
  const signedIn = useAppSelector((state) => state.auth.token !== null);
  const { data, isSuccess, refetch } = useSavedViewsQuery(rootPath, { skip: !signedIn });
  const [create] = useCreateSavedViewMutation();
  const uploading = useRef(false);
  // Read when the server answers, not a reason to run again.
  const cache = useRef(layouts);
  cache.current = layouts;

  useEffect(() => {
    if (!isSuccess || !data || uploading.current) return;
    const onServer = (layout: Layout) => data.some((view) => view.mine && view.slug === slugOfPath(layout.customPath));
    const toUpload = cache.current.filter(
      (layout) => !layout.server && !onServer(layout) && !attempted.has(layout.pathId),
    );
    if (toUpload.length === 0) {
      dispatch(cacheLayouts({ rootPath, layouts: data.map(layoutOfView) }));
      return;
    }
    uploading.current = true;
    for (const layout of toUpload) attempted.add(layout.pathId);
    void (async () => {
      for (const layout of toUpload) {
        const slug = slugOfPath(layout.customPath);
        const answer = await create({
          rootPath,
          name: layout.name.trim().slice(0, 100) || slug,
          ...(/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) && slug.length <= 80 ? { slug } : {}),
          state: stateOfLayout(layout),
        });
        // Refused (a field deleted since it was saved): the server's list stands. Not reached: kept, tried at the next visit.
        const failure = 'error' in answer && isApiFailure(answer.error) ? answer.error : undefined;
        if (failure && failure.status >= 400 && failure.status < 500 && failure.status !== 401)
          dispatch(removeLayout({ rootPath, customPath: layout.customPath }));
      }
      uploading.current = false;
      const fresh = await refetch();
      if (fresh.data) dispatch(cacheLayouts({ rootPath, layouts: fresh.data.map(layoutOfView) }));
    })();
  }, [data, isSuccess, rootPath, dispatch, create, refetch]);

  return layouts;
}
