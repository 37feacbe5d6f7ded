import { recordName } from '@data-platform/shared/entities/record-name';
import { Alert, Button, Group, Text } from '@mantine/core';
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useAppDispatch } from '../store/hooks.ts';
import { isApiFailure } from '../store/http.ts';
import { type Row, resourceApi } from '../store/resource-slices.ts';
import classes from './cell-editor.module.css';
import { useFieldLabel } from './cell-value.tsx';
import type { Column } from './columns.ts';
import { useEntity } from './custom-fields.ts';
import { FieldControl, siblingsOf } from './field-control.tsx';
import { useLazyRecordQuery, useUpdateRecordMutation } from './record-api.ts';
import { type FormValues, formFields, referenceJoins, toApiValue, toFormValue } from './record-values.ts';

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export interface CellEditorProps {
  resource: string;
  /** The row as the list shows it: its value, and the version a save claims to change. */
  row: Row;
  column: Column;
  rowName: (row: Row) => string;
  /** Closes the editor (saved, nothing changed, or cancelled): the focus goes back to the cell. */
  onClose: () => void;
}

/**
 * One value of a list's row edited in place, with the control its field
 * type has in forms. Enter saves only that field (PATCH with the row's
 * version, If-Match), Escape cancels. A row changed by someone else since the
 * list was read is said so, the value typed kept: the user reloads their
 * version, then saves over it or cancels. A refused value (400) is said under
 * the control.
 */
export function CellEditor({ resource, row, column, rowName, onClose }: CellEditorProps) {
  const { t } = useTranslation(['grid', 'common']);
  const { entity } = useEntity(resource);
  const label = useFieldLabel(resource)(column.name, column.field);
  const name = rowName(row);
  const dispatch = useAppDispatch();
  const siblings = useMemo(() => siblingsOf(formFields(entity, 'edit')), [entity]);
  // The row as the user started from it: its version is the one a save claims to change (another after a reload).
  const [base, setBase] = useState<Row>(row);
  const [stale, setStale] = useState<'stale' | 'reloaded' | null>(null);
  const form = useForm<FormValues>({ defaultValues: { [column.name]: toFormValue(column.field, row[column.name]) } });
  const [update, updating] = useUpdateRecordMutation(resource);
  const [fetchCurrent, fetching] = useLazyRecordQuery(resource);
  const saving = useRef(false);
  const box = useRef<HTMLFieldSetElement>(null);

  // The control takes the focus, its text selected: what the user types replaces the value.
  useEffect(() => {
    const input = box.current?.querySelector<HTMLInputElement | HTMLTextAreaElement>(
      'input:not([type="hidden"]):not([disabled]), textarea',
    );
    input?.focus();
    input?.select();
  }, []);

  const save = async () => {
    if (saving.current) return;
    const value = toApiValue(column.field, form.getValues(column.name));
    const before = toApiValue(column.field, toFormValue(column.field, base[column.name]));
    if (same(value, before) && stale === null) {
      onClose();
      return;
    }
    saving.current = true;
    form.clearErrors(column.name);
    const result = await update({ id: row.id, version: Number(base.version), body: { [column.name]: value } });
    saving.current = false;
    if (!('error' in result)) {
      toast.success(t('grid:edit.saved', { field: label, name }));
      onClose();
      return;
    }
    const failure = result.error;
    if (!isApiFailure(failure)) return;
    if (failure.status === 412) {
      setStale('stale');
      return;
    }
    const fields = failure.fields ?? {};
    const message = fields[column.name] ?? Object.values(fields)[0] ?? failure.message;
    form.setError(column.name, { type: 'server', message }, { shouldFocus: true });
  };

  /** Their version: the list reads it again, and a save now claims it, the value typed kept. */
  const reload = async () => {
    const current = await fetchCurrent({ id: row.id, join: referenceJoins(entity) }, false);
    if (!current.data) return;
    setBase(current.data);
    setStale('reloaded');
    dispatch(resourceApi(resource).util.invalidateTags(['List']));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLFieldSetElement>) => {
    // Keys a control used itself (an option picked, a list closed) are not the editor's.
    if (event.defaultPrevented) return;
    const inText = event.target instanceof HTMLTextAreaElement;
    if (event.key === 'Enter' && !(inText && event.shiftKey) && !(event.target instanceof HTMLButtonElement)) {
      event.preventDefault();
      event.stopPropagation();
      void save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    }
  };

  return (
    <fieldset
      ref={box}
      className={classes.editor}
      data-cell-editor
      aria-label={t('grid:edit.label', { field: label, name: recordName(entity, row) || name })}
      onKeyDown={onKeyDown}
    >
      <FieldControl
        name={column.name}
        field={column.field}
        label={label}
        control={form.control}
        record={base}
        siblings={siblings}
      />
      {stale !== null ? (
        <Alert color={stale === 'stale' ? 'orange' : 'blue'} role="alert" p="xs" mt="xs">
          <Text size="sm">{t(stale === 'stale' ? 'grid:edit.stale' : 'grid:edit.reloaded')}</Text>
          {stale === 'stale' ? (
            <Button
              size="compact-xs"
              variant="light"
              mt={4}
              loading={fetching.isFetching}
              onClick={() => void reload()}
            >
              {t('grid:edit.reload')}
            </Button>
          ) : null}
        </Alert>
      ) : null}
      <Group justify="space-between" gap="xs" className={classes.hint} wrap="nowrap">
        <Text size="xs" c="dimmed">
          {t('grid:edit.hint')}
        </Text>
        <Group gap={4} wrap="nowrap">
          <Button size="compact-xs" variant="default" onClick={onClose}>
            {t('grid:edit.cancel')}
          </Button>
          <Button size="compact-xs" loading={updating.isLoading} onClick={() => void save()}>
            {t('grid:edit.save')}
          </Button>
        </Group>
      </Group>
    </fieldset>
  );
}
