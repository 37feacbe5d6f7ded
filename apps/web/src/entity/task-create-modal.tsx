import { Modal, Stack } from '@mantine/core';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { isApiFailure } from '../store/http.ts';
import type { Row } from '../store/resource-slices.ts';
import { useEntity } from './custom-fields.ts';
import { FormButtons } from './form-buttons.tsx';
import { LeaveGuard } from './leave-guard.tsx';
import { useCreateRecordMutation } from './record-api.ts';
import { RecordFields, showServerErrors, useRecordForm } from './record-form.tsx';
import { TASKS } from './task-parts.tsx';

/**
 * The generic task form over a record's page, the task already about that
 * record and open (the owner is the signed-in user, as in every create form
 * of an owned entity). Unlike the list's create modal it stays on the record's
 * page: the new task shows in its Tasks panel.
 */
export function TaskCreateModal({ resource, id, onClose }: { resource: string; id: number; onClose: () => void }) {
  const { ready } = useEntity(TASKS);
  return ready ? <TaskCreateForm resource={resource} id={id} onClose={onClose} /> : null;
}

function TaskCreateForm({ resource, id, onClose }: { resource: string; id: number; onClose: () => void }) {
  const { t } = useTranslation(['record', 'common', 'entities']);
  // The form's starting values are read from a row; `id` is not a form field and is not sent.
  const presets = useMemo<Row>(() => ({ id: 0, entity: resource, recordId: id, status: 'Open' }), [resource, id]);
  const form = useRecordForm(TASKS, 'create', presets);
  const [create, creating] = useCreateRecordMutation(TASKS);
  const done = useRef(false);

  const onSubmit = form.handleSubmit(async (body) => {
    const result = await create(body);
    if ('error' in result) {
      if (isApiFailure(result.error)) showServerErrors(form, result.error);
      return;
    }
    done.current = true;
    toast.success(t('create.created', { name: String(result.data.title ?? result.data.id) }));
    onClose();
  });

  const title = t('create.title', { what: t(`entities:resources.${TASKS}.one`) });
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('record:dialog.close') }}
      opened
      onClose={onClose}
      title={title}
      size="xl"
    >
      <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label={title}>
        <Stack>
          <RecordFields resource={TASKS} mode="create" form={form} />
          <FormButtons submitLabel={t('common:actions.create')} onCancel={onClose} working={creating.isLoading} />
        </Stack>
      </form>
      <LeaveGuard dirty={form.formState.isDirty} leaving={done} />
    </Modal>
  );
}
