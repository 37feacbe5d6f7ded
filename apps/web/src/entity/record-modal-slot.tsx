import { type ComponentType, lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { useAppSelector } from '../store/hooks.ts';
import { can } from './access.ts';
import { hasRecordPages } from './record-routes.ts';

const CreateModal = lazy(async () => ({ default: (await import('./create-modal.tsx')).CreateModal }));

/** The modals a resource brings where the generic ones do not fit (users are invited, not created). */
export interface RecordModals {
  create?: ComponentType<{ resource: string; onClose: () => void }>;
  edit?: ComponentType<{ id: number; onClose: () => void }>;
}

/**
 * The create and edit modals over a list: shown while the address carries
 * `?create=1` (the list's Create button puts it there) or `?edit=<id>`;
 * closing one takes the parameter away. Generic resources create in the
 * generic modal; others bring their own.
 */
export function RecordModalSlot({ resource, modals }: { resource: string; modals?: RecordModals }) {
  const [search, setSearch] = useSearchParams();
  const user = useAppSelector((state) => state.auth.currentUser?.user);
  const close = (parameter: 'create' | 'edit') => () =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(parameter);
        return next;
      },
      { replace: true },
    );

  const Create = modals?.create ?? (hasRecordPages(resource) ? CreateModal : undefined);
  if (search.get('create') === '1' && Create && can(user, resource, 'create')) {
    return (
      <Suspense fallback={null}>
        <Create resource={resource} onClose={close('create')} />
      </Suspense>
    );
  }
  const editId = Number(search.get('edit'));
  const Edit = modals?.edit;
  if (Edit && Number.isSafeInteger(editId) && editId > 0 && can(user, resource, 'update')) {
    return (
      <Suspense fallback={null}>
        <Edit key={editId} id={editId} onClose={close('edit')} />
      </Suspense>
    );
  }
  return null;
}
