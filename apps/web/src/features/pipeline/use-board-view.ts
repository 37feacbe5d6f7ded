import { isViewSlug } from '@data-platform/shared/saved-view-slug';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { type ListView, viewOf, viewOfLayout, viewParams } from '../../entity/list-state.ts';
import { layoutOfView, useSavedViews } from '../../entity/saved-views.ts';
import type { ListViewStatus } from '../../entity/use-list-view.ts';
import { useAppSelector } from '../../store/hooks.ts';
import type { Layout } from '../../store/layouts-slice.ts';
import { useSavedViewAtQuery } from '../../store/saved-views-api.ts';

const noShows: string[] = [];

/**
 * The view the board shows: the deals list's own view state, in the same
 * address form (`?filter[type][eq]=Seed&q=nova&sort=-amount`), so that one
 * address works on both; `?view=<slug>` names one of the list's saved views,
 * whose filters, search and order the board takes unless the address states
 * them. Without either, the list's default filters. Columns are the list's
 * business: the board's cards show what a card shows.
 */
export function useBoardView(rootPath: string) {
  const [search, setSearch] = useSearchParams();
  const layouts = useSavedViews(rootPath);
  const savedFilters = useAppSelector((state) => state.layouts.defaultFilters[rootPath]);
  const slug = search.get('view') ?? '';
  const named = slug !== '';
  const validSlug = isViewSlug(slug);
  const at = useSavedViewAtQuery({ rootPath, slug }, { skip: !validSlug, refetchOnMountOrArgChange: true });
  const fromServer = useMemo(() => (at.currentData ? layoutOfView(at.currentData) : undefined), [at.currentData]);
  const gone = named && (!validSlug || at.currentData === null);
  const current: Layout | undefined = gone
    ? undefined
    : (fromServer ?? layouts.find((layout) => layout.customPath === `${rootPath}/views/${slug}`));
  const status: ListViewStatus = !named || current || at.isError ? 'ready' : gone ? 'notFound' : 'loading';
  const searchText = search.toString();

  const view: ListView = useMemo(() => {
    const addressed = viewOf(new URLSearchParams(searchText));
    const base = current
      ? viewOfLayout(current, noShows)
      : { shows: noShows, filters: savedFilters ?? [], sort: '', q: '' };
    return {
      shows: noShows,
      filters: addressed.filters ?? base.filters,
      sort: addressed.sort || base.sort,
      q: addressed.q || base.q,
    };
  }, [searchText, current, savedFilters]);

  /** A change of filters, search or order: all of it in the address, which can be shared. */
  const change = useCallback(
    (changes: Partial<ListView>) => {
      const next = { ...view, ...changes };
      const params = viewParams({ filters: next.filters, sort: next.sort, q: next.q });
      setSearch(new URLSearchParams([...(named ? [['view', slug]] : []), ...params]), { replace: true });
    },
    [view, named, slug, setSearch],
  );

  /** Opens a saved view on the board (its own state), or the deals without one. */
  const open = useCallback(
    (layout: Layout | undefined) => {
      const viewSlug = layout?.customPath.slice(`${rootPath}/views/`.length);
      setSearch(new URLSearchParams(viewSlug ? [['view', viewSlug]] : [['filters', 'none']]));
    },
    [rootPath, setSearch],
  );

  return { view, change, open, current, layouts, status };
}
