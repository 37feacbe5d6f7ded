import { useCallback, useMemo } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { stripLanguage } from '../i18n/languages.ts';
import { useAppDispatch, useAppSelector } from '../store/hooks.ts';
import { type Layout, setDefaultFilters, setDefaultShows } from '../store/layouts-slice.ts';
import { type ListView, viewOf, viewOfLayout, viewParams } from './list-state.ts';

const noLayouts: Layout[] = [];

/**
 * The view of the list at this address. On the root path (`/companies`) the
 * columns and filters are the layouts' defaults unless the address names
 * them; a saved view (`/companies/views/<slug>`) is what its address says,
 * else what was saved under that path.
 */
export function useListView(rootPath: string, defaultShows: readonly string[]) {
  const dispatch = useAppDispatch();
  const { pathname } = useLocation();
  const [search, setSearch] = useSearchParams();
  const path = stripLanguage(pathname);
  const onRoot = path === rootPath;
  const layouts = useAppSelector((state) => state.layouts.layouts[rootPath]) ?? noLayouts;
  const savedShows = useAppSelector((state) => state.layouts.defaultShows[rootPath]);
  const savedFilters = useAppSelector((state) => state.layouts.defaultFilters[rootPath]);
  const current = onRoot ? undefined : layouts.find((layout) => layout.customPath === path);
  const searchText = search.toString();

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

  return { view, change, current, onRoot };
}
