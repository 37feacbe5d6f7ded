import { Alert, Button, Group, List, Text } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { BulkResult, BulkRow } from '../store/resource-api.ts';
import { ConfirmDelete } from './confirm-delete.tsx';
import { useBulkDeleteMutation } from './record-api.ts';

// The bulk edit form (its field picker and value inputs) loads when it opens (issue #11).
const BulkEditModal = lazy(async () => ({ default: (await import('./bulk-edit-modal.tsx')).BulkEditModal }));

/** What a bulk action did: how many rows it was asked for, and its result. */
export interface BulkReport extends BulkResult {
  total: number;
}

/**
 * The rows a bulk action failed for, each by name with the server's reason
 * (changed by someone else since it was shown, already deleted...): it stays
 * until dismissed, as the user has to act on each.
 */
export function BulkFailures({ report, onClose }: { report: BulkReport | null; onClose: () => void }) {
  const { t } = useTranslation();
  if (!report || report.failed.length === 0) return null;
  return (
    <Alert
      color="red"
      role="alert"
      withCloseButton
      onClose={onClose}
      closeButtonLabel={t('actions.close')}
      data-testid="bulk-failures"
    >
      <Text size="sm">
        {t('list.partialFailure', { done: report.done.length, total: report.total, message: '' }).trim()}
      </Text>
      <List size="sm">
        {report.failed.map((failure) => (
          <List.Item key={failure.id}>{`${failure.name}: ${failure.message}`}</List.Item>
        ))}
      </List>
    </Alert>
  );
}

/**
 * Tells how a bulk action went: a toast when every row was done; an action on
 * one row that failed says the server's reason as one action would; the
 * failures of several rows are listed.
 */
export function useBulkReport() {
  const [report, setReport] = useState<BulkReport | null>(null);
  const show = (done: BulkReport, success: string) => {
    const [only] = done.failed;
    if (done.failed.length === 0 || (done.total === 1 && only)) {
      setReport(null);
      if (only) toast.error(only.message);
      else toast.success(success);
    } else setReport(done);
  };
  return { report, show, dismiss: () => setReport(null) };
}

/**
 * The bar over the selected rows (Edit a field, Delete selected, Clear
 * selection) and the deletion's confirmation, for the selection or one row.
 */
export function BulkActions({
  resource,
  selected,
  deleting,
  mayEdit,
  mayDelete,
  onDelete,
  onCancelDelete,
  onDone,
  onClear,
}: {
  resource: string;
  selected: readonly BulkRow[];
  /** The rows whose deletion awaits confirmation. */
  deleting: readonly BulkRow[] | null;
  mayEdit: boolean;
  mayDelete: boolean;
  onDelete: (rows: readonly BulkRow[]) => void;
  onCancelDelete: () => void;
  /** After an action: what it did, to report. */
  onDone: (report: BulkReport, success: string) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  // The rows the edit was opened for: a search or filter changed meanwhile clears the selection, not the form's rows.
  const [editing, setEditing] = useState<readonly BulkRow[] | null>(null);
  const [bulkRemove, { isLoading: removing }] = useBulkDeleteMutation(resource);

  const confirmDelete = async () => {
    if (!deleting) return;
    const result = await bulkRemove({ rows: deleting });
    onCancelDelete();
    onClear();
    if (!('data' in result) || !result.data) return;
    const [only] = deleting;
    onDone(
      { ...result.data, total: deleting.length },
      deleting.length === 1 && only
        ? t('list.deleted', { name: only.name })
        : t('list.deletedMany', { count: result.data.done.length }),
    );
  };

  const [first] = deleting ?? [];
  return (
    <>
      {selected.length > 0 ? (
        <Group gap="xs" role="toolbar" aria-label={t('list.bulkActions')} data-testid="bulk-bar">
          <Text size="sm">{t('list.selected', { count: selected.length })}</Text>
          {mayEdit ? (
            <Button size="xs" variant="default" onClick={() => setEditing(selected)}>
              {t('list.bulkEdit')}
            </Button>
          ) : null}
          {mayDelete ? (
            <Button size="xs" color="red" variant="light" onClick={() => onDelete(selected)}>
              {t('list.bulkDelete')}
            </Button>
          ) : null}
          <Button size="xs" variant="subtle" onClick={onClear}>
            {t('list.clearSelection')}
          </Button>
        </Group>
      ) : null}
      <ConfirmDelete
        opened={deleting !== null}
        title={t('list.confirmDeleteTitle')}
        working={removing}
        onConfirm={() => void confirmDelete()}
        onCancel={onCancelDelete}
      >
        {deleting?.length === 1 && first
          ? t('list.confirmDelete', { name: first.name, context: resource })
          : t('list.confirmDeleteMany', { count: deleting?.length ?? 0, context: resource })}
      </ConfirmDelete>
      {editing ? (
        <Suspense fallback={null}>
          <BulkEditModal
            resource={resource}
            rows={editing}
            onClose={() => setEditing(null)}
            onDone={(result) => {
              onClear();
              onDone({ ...result, total: editing.length }, t('list.updatedMany', { count: result.done.length }));
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
