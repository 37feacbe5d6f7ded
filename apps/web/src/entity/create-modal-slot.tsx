import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { hasRecordPages, useMay } from './record-routes.ts';

const CreateModal = lazy(async () => ({ default: (await import('./create-modal.tsx')).CreateModal }));

/**
 * The create modal over a list: shown while the address carries `?create=1`
 * (the list's Create button puts it there); closing it takes the parameter away.
 */
export function CreateModalSlot({ resource }: { resource: string }) {
  const [search, setSearch] = useSearchParams();
  const may = useMay(resource);
  if (search.get('create') !== '1' || !hasRecordPages(resource) || !may('create')) return null;
  const close = () =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('create');
        return next;
      },
      { replace: true },
    );
  return (
    <Suspense fallback={null}>
      <CreateModal resource={resource} onClose={close} />
    </Suspense>
  );
}
