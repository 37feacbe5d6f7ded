import { findEntity } from '@data-platform/shared/entities/registry';
import { LocalizedName, localizesNames } from '../localized-names.tsx';
import { useRecordQuery } from '../record-api.ts';

/**
 * The name of a referenced record, read once per id (a filter's chip); a
 * country in the interface's language, from the countries the store holds.
 * Apart from the reference widget, whose pickers load with the first form or
 * filter input (issue #11).
 */
export function ReferenceName({ resource, id }: { resource: string; id: string }) {
  const target = findEntity(resource);
  const localized = localizesNames(resource);
  const { data } = useRecordQuery({ resource, id: Number(id) }, { skip: !target || localized || !/^\d+$/.test(id) });
  if (localized) return <LocalizedName resource={resource} id={id} stored={`#${id}`} />;
  const shown = target ? data?.[target.display] : undefined;
  return <>{shown === undefined || shown === null ? `#${id}` : String(shown)}</>;
}
