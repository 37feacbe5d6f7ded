import { recordName } from '@data-platform/shared/entities/record-name';
import { Modal, Stack } from '@mantine/core';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { useLocalizedPath } from '../i18n/use-localized-path.ts';
import { isApiFailure } from '../store/http.ts';
import type { Row } from '../store/resource-slices.ts';
import { useEntity } from './custom-fields.ts';
import { FormButtons } from './form-buttons.tsx';
import { LeaveGuard } from './leave-guard.tsx';
import { keepEnterInOpenList } from './open-list-enter.ts';
import { useCreateRecordMutation } from './record-api.ts';
import { RecordFields, showServerErrors, useRecordForm } from './record-form.tsx';
import { recordPath } from './record-routes.ts';

interface CreateProps {
  resource: string;
  onClose: () => void;
  /**
   * Starting values, as a row of the resource (`id` is not a form field and is
   * not sent): a task added on a record's page is already about that record.
   */
  presets?: Row;
  /** What follows a create; by default the new record's page. */
  onCreated?: (row: Row) => void;
}

/** The create modal of a resource: its form (once its custom fields are known), then the new record's show page. */
export function CreateModal(props: CreateProps) {
  const { ready } = useEntity(props.resource);
  return ready ? <CreateForm {...props} /> : null;
}

function CreateForm({ resource, onClose, presets, onCreated }: CreateProps) {
  const { t } = useTranslation(['record', 'common', 'entities']);
  const { entity } = useEntity(resource);
  const navigate = useNavigate();
  const localized = useLocalizedPath();
  const form = useRecordForm(resource, 'create', presets);
  const [create, creating] = useCreateRecordMutation(resource);
  const done = useRef(false);

  const onSubmit = form.handleSubmit(async (body) => {
    const result = await create(body);
    if ('error' in result) {
      if (isApiFailure(result.error)) showServerErrors(form, result.error);
      return;
    }
    done.current = true;
    form.reset(form.getValues());
    toast.success(t('create.created', { name: recordName(entity, result.data) }));
    if (onCreated) onCreated(result.data);
    else navigate(localized(recordPath(resource, result.data.id, 'show') ?? '/'));
  });

  const title = t('create.title', { what: t(`entities:resources.${resource}.one`) });
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('record:dialog.close') }}
      opened
      onClose={onClose}
      title={title}
      size="xl"
    >
      <form onKeyDown={keepEnterInOpenList} onSubmit={(event) => void onSubmit(event)} noValidate aria-label={title}>
        <Stack>
          <RecordFields resource={resource} mode="create" form={form} />
          <FormButtons submitLabel={t('common:actions.create')} onCancel={onClose} working={creating.isLoading} />
        </Stack>
      </form>
      <LeaveGuard dirty={form.formState.isDirty} leaving={done} />
    </Modal>
  );
}
