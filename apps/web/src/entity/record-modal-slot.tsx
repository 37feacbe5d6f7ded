import { type ComponentType, lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { useAppSelector } from '../store/hooks.ts';
import { can } from './access.ts';
import { editsInModal, hasRecordScreens } from './record-routes.ts';

const CreateModal = lazy(async () => ({ default: (await import('./create-modal.tsx')).CreateModal }));
const EditModal = lazy(async () => ({ default: (await import('./edit-page.tsx')).EditModal }));

/** The modals a resource brings where the generic ones do not fit (users are invited, not created). */
export interface RecordModals {
  create?: ComponentType<{ resource: string; onClose: () => void }>;
  edit?: ComponentType<{ id: number; onClose: () => void }>;
}

/**
 * The create and edit modals over a list: shown while the address carries
 * `?create=1` (the list's Create button puts it there) or `?edit=<id>`;
 * closing one takes the parameter away. Resources use the generic modals
 * unless they bring their own.
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

  const Create = modals?.create ?? (hasRecordScreens(resource) ? CreateModal : undefined);
  if (search.get('create') === '1' && Create && can(user, resource, 'create')) {
    return (
      <Suspense fallback={null}>
        <Create resource={resource} onClose={close('create')} />
      </Suspense>
    );
  }
  const editId = Number(search.get('edit'));
  const Edit = modals?.edit;
  if (editsInModal(resource) && Number.isSafeInteger(editId) && editId > 0 && can(user, resource, 'update')) {
    return (
      <Suspense fallback={null}>
        {Edit ? (
          <Edit key={editId} id={editId} onClose={close('edit')} />
        ) : (
          <EditModal key={editId} resource={resource} id={editId} onClose={close('edit')} />
        )}
      </Suspense>
    );
  }
  return null;
}
