import { isViewSlug } from '@data-platform/shared/saved-view-slug';
import { useCallback, useMemo } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { stripLanguage } from '../i18n/languages.ts';
import { useAppDispatch, useAppSelector } from '../store/hooks.ts';
import { setDefaultFilters, setDefaultShows } from '../store/layouts-slice.ts';
import { useSavedViewAtQuery } from '../store/saved-views-api.ts';
import { type ListView, viewOf, viewOfLayout, viewParams } from './list-state.ts';
import { layoutOfView, useSavedViews } from './saved-views.ts';

/**
 * Whether the list can show: `loading` while the saved view an address names
 * is read (and nothing is known of it yet), `notFound` when the server has no
 * view there that this user may see.
 */
export type ListViewStatus = 'ready' | 'loading' | 'notFound';

/**
 * The view of the list at this address. On the root path (`/companies`) the
 * columns and filters are the layouts' defaults unless the address names
 * them; a saved view (`/companies/views/<slug>`) is what its address says,
 * else what the server holds under that slug for this user (their own view,
 * else one shared with the team), shown from the layouts cache meanwhile.
 */
export function useListView(rootPath: string, defaultShows: readonly string[]) {
  const dispatch = useAppDispatch();
  const { pathname } = useLocation();
  const [search, setSearch] = useSearchParams();
  const path = stripLanguage(pathname);
  const onRoot = path === rootPath;
  const layouts = useSavedViews(rootPath);
  const savedShows = useAppSelector((state) => state.layouts.defaultShows[rootPath]);
  const savedFilters = useAppSelector((state) => state.layouts.defaultFilters[rootPath]);
  const prefix = `${rootPath}/views/`;
  const slug = !onRoot && path.startsWith(prefix) ? path.slice(prefix.length) : '';
  const validSlug = isViewSlug(slug);
  const at = useSavedViewAtQuery({ rootPath, slug }, { skip: !validSlug, refetchOnMountOrArgChange: true });
  // No view this user may see at this address (deleted, unshared, never saved).
  const gone = !onRoot && (!validSlug || at.currentData === null);
  const cached = onRoot ? undefined : layouts.find((layout) => layout.customPath === path);
  const fromServer = useMemo(() => (at.currentData ? layoutOfView(at.currentData) : undefined), [at.currentData]);
  const current = gone ? undefined : (fromServer ?? cached);
  const searchText = search.toString();
  const addressesState =
    search.has('shows') || search.has('filters') || [...search.keys()].some((key) => key.startsWith('filter['));
  const status: ListViewStatus = onRoot
    ? 'ready'
    : gone
      ? 'notFound'
      : current || addressesState || at.isError
        ? 'ready'
        : 'loading';

  const view: ListView = useMemo(() => {
    const addressed = viewOf(new URLSearchParams(searchText));
    const base: ListView = current
      ? viewOfLayout(current, defaultShows)
      : {
          shows: (onRoot ? savedShows : undefined) ?? [...defaultShows],
          filters: (onRoot ? savedFilters : undefined) ?? [],
          sort: '',
          q: '',
        };
    return {
      shows: addressed.shows ?? base.shows,
      filters: addressed.filters ?? base.filters,
      sort: addressed.sort || base.sort,
      q: addressed.q || base.q,
    };
  }, [searchText, current, onRoot, savedShows, savedFilters, defaultShows]);

  const change = useCallback(
    (changes: Partial<ListView>) => {
      const next = { ...view, ...changes };
      if (!onRoot) {
        // A view's address carries all of it, so that it can be shared.
        setSearch(new URLSearchParams(viewParams(next)), { replace: true });
        return;
      }
      // The root path keeps columns and filters in the layouts (they survive a reload), sort and search in the address.
      if (changes.shows) dispatch(setDefaultShows({ rootPath, shows: changes.shows }));
      if (changes.filters) dispatch(setDefaultFilters({ rootPath, filters: changes.filters }));
      const params = new URLSearchParams(searchText);
      const addressed = viewOf(params);
      setSearch(
        new URLSearchParams(
          viewParams({
            shows: changes.shows ? undefined : addressed.shows,
            filters: changes.filters ? undefined : addressed.filters,
            sort: next.sort,
            q: next.q,
          }),
        ),
        { replace: true },
      );
    },
    [view, onRoot, setSearch, dispatch, rootPath, searchText],
  );

  return { view, change, current, onRoot, status };
}
