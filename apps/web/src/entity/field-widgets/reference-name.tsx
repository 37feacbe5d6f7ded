import { findEntity } from '@data-platform/shared/entities/registry';
import { useRecordQuery } from '../record-api.ts';

/**
 * The name of a referenced record, read once per id (a filter's chip). Apart
 * from the reference widget, whose pickers load with the first form or filter
 * input (issue #11).
 */
export function ReferenceName({ resource, id }: { resource: string; id: string }) {
  const target = findEntity(resource);
  const { data } = useRecordQuery({ resource, id: Number(id) }, { skip: !target || !/^\d+$/.test(id) });
  const shown = target ? data?.[target.display] : undefined;
  return <>{shown === undefined || shown === null ? `#${id}` : String(shown)}</>;
}
