import { referenceRelationName } from '@data-platform/shared/entities/entity';
import { recordName } from '@data-platform/shared/entities/record-name';
import { Alert, Button, Card, Group, Loader, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { toast } from 'react-toastify';
import { useLocalizedPath } from '../i18n/use-localized-path.ts';
import { isApiFailure } from '../store/http.ts';
import type { Row } from '../store/resource-slices.ts';
import { useFieldLabel } from './cell-value.tsx';
import { useEntity } from './custom-fields.ts';
import { FieldValue } from './field-value.tsx';
import { FormButtons } from './form-buttons.tsx';
import { LeaveGuard } from './leave-guard.tsx';
import { keepEnterInOpenList } from './open-list-enter.ts';
import { useLazyRecordQuery, useRecordQuery, useUpdateRecordMutation } from './record-api.ts';
import { RecordFields, showServerErrors, useRecordForm } from './record-form.tsx';
import { recordPath } from './record-routes.ts';
import {
  type ApiValues,
  changedValues,
  conflictingChanges,
  type FieldChange,
  formValuesOf,
  referenceJoins,
} from './record-values.ts';

/** `/companies/7/edit`: the record's form; Save, Cancel, and a clear way out of a conflicting save. */
export function EditPage({ resource }: { resource: string }) {
  return <RecordEditor resource={resource} id={Number(useParams().id)} />;
}

/** The edit modal of resources edited over their list (`?edit=<id>`): the same form as the edit page. */
export function EditModal({ resource, id, onClose }: { resource: string; id: number; onClose: () => void }) {
  const { t } = useTranslation(['record', 'entities']);
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('record:dialog.close') }}
      opened
      onClose={onClose}
      title={t('edit.heading', { what: t(`entities:resources.${resource}.one`) })}
      size="xl"
    >
      <RecordEditor resource={resource} id={id} onDone={onClose} />
    </Modal>
  );
}

/** Loads the record (and the resource's custom fields), then its form. */
function RecordEditor({ resource, id, onDone }: { resource: string; id: number; onDone?: () => void }) {
  const { t } = useTranslation(['record', 'common']);
  const { entity, ready } = useEntity(resource);
  const join = useMemo(() => referenceJoins(entity), [entity]);
  const {
    data: loaded,
    error,
    isLoading,
  } = useRecordQuery({ resource, id, join }, { skip: !Number.isSafeInteger(id), refetchOnMountOrArgChange: true });
  // A record gone since it was read is not edited from the cache.
  const record = error ? undefined : loaded;
  if (isLoading || !ready) return <Loader size="sm" role="status" aria-label={t('common:list.loading')} />;
  if (!record) {
    return (
      <Alert color="red" role="alert" title={t('show.missingTitle')}>
        {isApiFailure(error) ? error.message : t('show.missing')}
      </Alert>
    );
  }
  return <EditForm resource={resource} initial={record} join={join} onDone={onDone} />;
}

interface Conflict {
  current: Row;
  changes: FieldChange[];
  body: ApiValues;
}

interface EditFormProps {
  resource: string;
  initial: Row;
  join: string[];
  /** In a modal: what closes it, after a save or on Cancel (a page goes to the record's show page). */
  onDone?: () => void;
}

function EditForm({ resource, initial, join, onDone }: EditFormProps) {
  const { t } = useTranslation(['record', 'common', 'entities']);
  const { entity } = useEntity(resource);
  const navigate = useNavigate();
  const localized = useLocalizedPath();
  const label = useFieldLabel(resource);
  // The record as the user started from it: its version is the one a save claims to change.
  const [base, setBase] = useState(initial);
  const form = useRecordForm(resource, 'edit', base);
  const [update, updating] = useUpdateRecordMutation(resource);
  const [fetchCurrent, fetching] = useLazyRecordQuery(resource);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const leaving = useRef(false);
  const showPath = localized(recordPath(resource, base.id, 'show') ?? '/');
  const name = recordName(entity, base);

  const leave = () => {
    leaving.current = true;
    form.reset(form.getValues());
    if (onDone) onDone();
    else navigate(showPath);
  };

  const save = async (body: ApiValues, version: number) => {
    // The save invalidates the record and the lists showing it: they read it again, names of references included.
    const result = await update({ id: base.id, version, body });
    if (!('error' in result)) {
      toast.success(t('edit.saved', { name }));
      leave();
      return;
    }
    const failure = result.error;
    if (!isApiFailure(failure)) return;
    if (failure.status === 412) {
      const current = await fetchCurrent({ id: base.id, join }, false);
      if (current.data)
        setConflict({ current: current.data, changes: conflictingChanges(entity, base, current.data, body), body });
      return;
    }
    showServerErrors(form, failure);
  };

  const onSubmit = form.handleSubmit(async (parsed) => {
    const body = changedValues(entity, base, parsed);
    if (Object.keys(body).length === 0) {
      leave();
      return;
    }
    await save(body, Number(base.version));
  });

  const reload = () => {
    if (!conflict) return;
    setBase(conflict.current);
    form.reset(formValuesOf(entity, 'edit', conflict.current));
    setConflict(null);
  };
  const overwrite = async () => {
    if (!conflict) return;
    const { body, current } = conflict;
    setConflict(null);
    setBase(current);
    await save(body, Number(current.version));
  };

  // The user's value of a field; a reference the user picked is named by its id (its name is not joined).
  const mineRow = (change: FieldChange, current: Row): Row => {
    const row: Row = { ...current, [change.name]: change.mine };
    if (change.field.type === 'reference') row[referenceRelationName(change.name)] = null;
    return row;
  };

  return (
    <form onKeyDown={keepEnterInOpenList} onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="lg">
        {onDone ? null : (
          <div>
            <Text c="dimmed" size="sm">
              {t('edit.heading', { what: t(`entities:resources.${resource}.one`) })}
            </Text>
            <Title order={1} size="h2">
              {name}
            </Title>
          </div>
        )}
        {onDone ? (
          <RecordFields resource={resource} mode="edit" form={form} record={base} />
        ) : (
          <Card withBorder>
            <RecordFields resource={resource} mode="edit" form={form} record={base} />
          </Card>
        )}
        <FormButtons
          submitLabel={t('common:actions.save')}
          onCancel={onDone ?? (() => navigate(showPath))}
          working={updating.isLoading || fetching.isFetching}
        />
      </Stack>
      <LeaveGuard dirty={form.formState.isDirty} leaving={leaving} />
      <Modal
        closeButtonProps={{ 'aria-label': t('record:dialog.close') }}
        opened={conflict !== null}
        onClose={() => setConflict(null)}
        title={t('conflict.title')}
        size="xl"
        centered
      >
        {conflict ? (
          <Stack>
            <Text>{t('conflict.text', { version: String(conflict.current.version) })}</Text>
            {conflict.changes.length > 0 ? (
              <Table withTableBorder data-testid="conflict-changes">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('conflict.field')}</Table.Th>
                    <Table.Th scope="col">{t('conflict.before')}</Table.Th>
                    <Table.Th scope="col">{t('conflict.now')}</Table.Th>
                    <Table.Th scope="col">{t('conflict.mine')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {conflict.changes.map((change) => (
                    <Table.Tr key={change.name}>
                      <Table.Td>{label(change.name, change.field)}</Table.Td>
                      <Table.Td>
                        <FieldValue row={base} name={change.name} field={change.field} />
                      </Table.Td>
                      <Table.Td>
                        <FieldValue row={conflict.current} name={change.name} field={change.field} />
                      </Table.Td>
                      <Table.Td>
                        {change.mine === undefined ? (
                          <Text c="dimmed" size="sm">
                            {t('conflict.unchanged')}
                          </Text>
                        ) : (
                          <FieldValue row={mineRow(change, conflict.current)} name={change.name} field={change.field} />
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            ) : (
              <Text c="dimmed">{t('conflict.noFieldChanges')}</Text>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={reload}>
                {t('conflict.reload')}
              </Button>
              <Button color="red" onClick={() => void overwrite()}>
                {t('conflict.overwrite')}
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </form>
  );
}
