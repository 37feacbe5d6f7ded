import { recordPath } from '../../entity/record-routes.ts';
import { filterSearch, listPathOf } from '../../entity/resource-routes.ts';

/** Where a record is: its page, or its list filtered to it when it has no page. */
export function recordLink(entity: string, id: number): string | undefined {
  const page = recordPath(entity, id, 'show');
  if (page) return page;
  const list = listPathOf(entity);
  return list ? `${list}${filterSearch('id', 'eq', String(id))}` : undefined;
}
