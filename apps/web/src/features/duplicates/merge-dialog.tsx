import { type MergePick, type MergeResult, mergeableFields } from '@data-platform/shared/duplicates';
import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { recordName } from '@data-platform/shared/entities/record-name';
import { Button, Group, Loader, Modal, Radio, Stack, Table, Text } from '@mantine/core';
import { IconArrowsExchange } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldLabel } from '../../entity/cell-value.tsx';
import { useEntity } from '../../entity/custom-fields.ts';
import { FieldValue } from '../../entity/field-value.tsx';
import { useRecordQuery } from '../../entity/record-api.ts';
import { useShownJoins } from '../../entity/show-page.tsx';
import type { Row } from '../../store/resource-slices.ts';
import { useMergeRecordsMutation } from './duplicates-api.ts';

const isEmpty = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** Whose value a field keeps unless the user picks: the survivor's, or the other one's when only it has one. */
function defaultPick(survivor: Row, merged: Row, field: string): MergePick {
  return isEmpty(survivor[field]) && !isEmpty(merged[field]) ? 'merged' : 'survivor';
}

/** The fields whose values differ between the two records: the ones there is something to pick for. */
function differingFields(fields: string[], a: Row, b: Row): string[] {
  return fields.filter(
    (name) => (!isEmpty(a[name]) || !isEmpty(b[name])) && JSON.stringify(a[name]) !== JSON.stringify(b[name]),
  );
}

/**
 * Two records side by side: per field whose values differ, a choice between
 * them (the survivor's by default, or the only one there is); which record
 * stays can be swapped. Merge sends the picks with both versions as read
 * here, so a change made meanwhile by someone else is refused (412), not lost.
 */
export function MergeDialog({
  entity: base,
  ids,
  onClose,
  onMerged,
}: {
  entity: EntityDescription;
  ids: readonly [number, number];
  onClose: () => void;
  onMerged: (result: MergeResult) => void;
}) {
  const { t } = useTranslation(['duplicates', 'common']);
  const resource = base.name;
  const { entity, ready } = useEntity(resource);
  const label = useFieldLabel(resource);
  const join = useShownJoins(resource);
  const [survivorId, setSurvivorId] = useState(ids[0]);
  const mergedId = survivorId === ids[0] ? ids[1] : ids[0];
  const first = useRecordQuery({ resource, id: ids[0], join }, { refetchOnMountOrArgChange: true });
  const second = useRecordQuery({ resource, id: ids[1], join }, { refetchOnMountOrArgChange: true });
  const [merge, merging] = useMergeRecordsMutation();
  const [picks, setPicks] = useState<Record<string, MergePick>>({});

  const records = first.data && second.data ? { [ids[0]]: first.data, [ids[1]]: second.data } : undefined;
  const survivor = records?.[survivorId];
  const merged = records?.[mergedId];
  const fields = useMemo(
    () => (survivor && merged && ready ? differingFields(mergeableFields(entity), survivor, merged) : []),
    [survivor, merged, ready, entity],
  );
  const pickOf = (field: string): MergePick =>
    picks[field] ?? (survivor && merged ? defaultPick(survivor, merged, field) : 'survivor');

  const swap = () => {
    // The same values stay chosen: a pick names a side, which the swap turns around.
    setPicks(Object.fromEntries(fields.map((field) => [field, pickOf(field) === 'survivor' ? 'merged' : 'survivor'])));
    setSurvivorId(mergedId);
  };

  const submit = async () => {
    if (!survivor || !merged) return;
    const result = await merge({
      resource,
      survivorId,
      mergedId,
      survivorVersion: Number(survivor.version),
      mergedVersion: Number(merged.version),
      picks: Object.fromEntries(fields.map((field) => [field, pickOf(field)])),
    });
    if ('data' in result && result.data) onMerged(result.data);
  };

  const side = (row: Row, which: MergePick) => (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase">
        {which === 'survivor' ? t('dialog.survivor') : t('dialog.merged')}
      </Text>
      <Text fw={600} data-testid={`merge-${which}-name`}>
        {recordName(entity, row)}
      </Text>
    </Stack>
  );

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('dialog.title')}
      size="xl"
      closeButtonProps={{ 'aria-label': t('dialog.cancel') }}
    >
      {!survivor || !merged || !ready ? (
        <Group gap="xs">
          <Loader size="sm" role="status" aria-label={t('common:list.loading')} />
          <Text size="sm">{t('dialog.loading')}</Text>
        </Group>
      ) : (
        <Stack gap="md">
          <Text size="sm">{t('dialog.help')}</Text>
          <Table withTableBorder verticalSpacing="xs" layout="fixed">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w="22%">{t('dialog.field')}</Table.Th>
                <Table.Th>{side(survivor, 'survivor')}</Table.Th>
                <Table.Th>{side(merged, 'merged')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {fields.map((name) => {
                const field = entity.fields[name];
                if (!field) return null;
                const fieldLabel = label(name, field);
                return (
                  <Table.Tr key={name} data-field={name}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {fieldLabel}
                      </Text>
                    </Table.Td>
                    {(['survivor', 'merged'] as const).map((which) => {
                      const row = which === 'survivor' ? survivor : merged;
                      return (
                        <Table.Td key={which}>
                          <Radio
                            name={`pick-${name}`}
                            value={which}
                            checked={pickOf(name) === which}
                            onChange={() => setPicks((now) => ({ ...now, [name]: which }))}
                            aria-label={`${fieldLabel}: ${recordName(entity, row)}`}
                            label={
                              isEmpty(row[name]) ? (
                                <Text size="sm" c="dimmed">
                                  {t('dialog.empty')}
                                </Text>
                              ) : (
                                <FieldValue row={row} name={name} field={field} />
                              )
                            }
                          />
                        </Table.Td>
                      );
                    })}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
          <Group justify="space-between">
            <Button variant="subtle" leftSection={<IconArrowsExchange size={16} aria-hidden />} onClick={swap}>
              {t('dialog.swap')}
            </Button>
            <Group gap="xs">
              <Button variant="default" onClick={onClose}>
                {t('dialog.cancel')}
              </Button>
              <Button color="red" onClick={() => void submit()} loading={merging.isLoading}>
                {t('dialog.confirm')}
              </Button>
            </Group>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
