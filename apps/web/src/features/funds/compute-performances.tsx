import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconCalculator } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useMay } from '../../entity/record-routes.ts';
import { useFormat } from '../../i18n/format.ts';
import { useAppDispatch } from '../../store/hooks.ts';
import { resourceApi } from '../../store/resource-slices.ts';
import { useComputePerformancesMutation } from './analytics-api.ts';

const PERFORMANCES = 'fundPerformances';

/**
 * "Compute quarterly records" on a fund's page: after a confirmation that
 * says what it writes, `POST /funds/{id}/performances/compute`, then a toast
 * with what it did (added, updated, unchanged, removed, hand-entered left
 * alone). Offered to those who may create, update and delete performance
 * records (what the endpoint needs); a refusal shows the server's message, as
 * every failed call does (app/notifications.ts).
 */
export function ComputePerformances({ fundId, flowCount }: { fundId: number; flowCount: number }) {
  const { t } = useTranslation(['funds', 'common']);
  const format = useFormat();
  const may = useMay(PERFORMANCES);
  const dispatch = useAppDispatch();
  const [open, setOpen] = useState(false);
  const [compute, computing] = useComputePerformancesMutation();
  if (!may('create') || !may('update') || !may('delete')) return null;

  const onCompute = async () => {
    const result = await compute({ id: fundId });
    if ('error' in result) return;
    setOpen(false);
    // The performance records' own lists and pages (the funds area is read again by the mutation).
    dispatch(resourceApi(PERFORMANCES).util.invalidateTags(['List', 'Record']));
    const answer = result.data;
    toast.success(
      t('compute.done', {
        date: format.date(answer.through),
        created: format.number(answer.created),
        updated: format.number(answer.updated),
        unchanged: format.number(answer.unchanged),
        removed: format.number(answer.removed),
        keptManual: format.number(answer.keptManual),
      }),
    );
  };

  return (
    <>
      <Button
        size="xs"
        variant="default"
        leftSection={<IconCalculator size={14} aria-hidden />}
        onClick={() => setOpen(true)}
      >
        {t('compute.button')}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('compute.title')} size="md">
        <Stack gap="md">
          <Text size="sm">{flowCount > 0 ? t('compute.text') : t('compute.noFlows')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              {t('common:actions.cancel')}
            </Button>
            <Button loading={computing.isLoading} disabled={flowCount === 0} onClick={() => void onCompute()}>
              {t('compute.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
