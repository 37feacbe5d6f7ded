import { allFields, isWritable } from '@data-platform/shared/entities/entity';
import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BulkResult, BulkRow } from '../store/resource-api.ts';
import { useFieldLabel } from './cell-value.tsx';
import { useEntity } from './custom-fields.ts';
import { ValueInput } from './filter-inputs.tsx';
import { apiValueOf } from './list-state.ts';
import { useBulkUpdateMutation } from './record-api.ts';

/** Field types a bulk edit offers: one value typed in one input. */
const bulkTypes = new Set([
  'text',
  'email',
  'url',
  'phone',
  'integer',
  'decimal',
  'percent',
  'year',
  'date',
  'boolean',
  'select',
  'reference',
  'currency',
]);

/**
 * Sets one field to one value on every selected row, each claiming the
 * version it was shown at; answers what was done and which rows failed.
 */
export function BulkEditModal({
  resource,
  rows,
  onClose,
  onDone,
}: {
  resource: string;
  rows: readonly BulkRow[];
  onClose: () => void;
  onDone: (result: BulkResult) => void;
}) {
  const { t } = useTranslation();
  const { entity } = useEntity(resource);
  const label = useFieldLabel(resource);
  const [bulkUpdate, { isLoading: working }] = useBulkUpdateMutation(resource);
  const editable = Object.entries(entity.fields).filter(
    ([, field]) => isWritable(field) && !field.immutable && bulkTypes.has(field.type),
  );
  const [name, setName] = useState<string | null>(null);
  const [value, setValue] = useState<string | undefined>();
  const field = name ? allFields(entity)[name] : undefined;

  const apply = async () => {
    if (!name || !field) return;
    const result = await bulkUpdate({ rows, changes: { [name]: apiValueOf(field, value) } });
    if ('data' in result && result.data) onDone(result.data);
    onClose();
  };

  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('actions.close') }}
      opened
      onClose={working ? () => undefined : onClose}
      title={t('list.bulkEditTitle', { count: rows.length })}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void apply();
        }}
      >
        <Stack>
          <Select
            // The field picker takes the focus when the dialog opens, not its Close button (issue #13).
            data-autofocus
            label={t('list.bulkField')}
            data={editable.map(([n, f]) => ({ value: n, label: label(n, f) }))}
            value={name}
            onChange={(next) => {
              setName(next);
              setValue(undefined);
            }}
            searchable
            comboboxProps={{ withinPortal: false }}
          />
          {field ? (
            <ValueInput field={field} label={t('list.bulkValue')} value={value} onChange={(next) => setValue(next)} />
          ) : null}
          <Text size="xs" c="dimmed">
            {t('list.bulkEmptyClears')}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={working}>
              {t('actions.cancel')}
            </Button>
            <Button type="submit" disabled={!name} loading={working}>
              {t('actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
