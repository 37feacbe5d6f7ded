import { ListPage } from '../../entity/list-page.tsx';
import { listPathOf } from '../../entity/resource-routes.ts';
import { ViewModeToggle } from './view-mode-toggle.tsx';

/** The deals list, with the way to the board beside its tools. */
export function DealsListPage() {
  const rootPath = listPathOf('deals') ?? '/deals';
  return <ListPage resource="deals" rootPath={rootPath} toolbar={<ViewModeToggle rootPath={rootPath} mode="list" />} />;
}
