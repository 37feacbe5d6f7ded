import { Button, Stack, Text } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useMay } from '../../entity/record-routes.ts';
import { useAppDispatch } from '../../store/hooks.ts';
import { resourceApi } from '../../store/resource-slices.ts';
import { useRecordHistoryInfiniteQuery, useRestoreRecordMutation } from './history-api.ts';

/**
 * On the page of a record that is gone: when its last entry is a deletion
 * that can still be undone and the user may create such records, says so
 * and restores it (with its links, notes and files); otherwise nothing.
 */
export default function DeletedRecord({ resource, id }: { resource: string; id: number }) {
  const { t } = useTranslation('history');
  const may = useMay(resource);
  const dispatch = useAppDispatch();
  const { data } = useRecordHistoryInfiniteQuery({ resource, id }, { refetchOnMountOrArgChange: true });
  const [restore, restoring] = useRestoreRecordMutation();
  const last = data?.pages[0]?.data[0];
  if (last?.action !== 'deleted' || !last.restorable || !may('create')) return null;
  const onRestore = async () => {
    const result = await restore({ resource, id });
    if ('error' in result) return;
    dispatch(resourceApi(resource).util.invalidateTags(['List', { type: 'Record', id }]));
    toast.success(t('recordRestored'));
  };
  return (
    <Stack gap="xs" align="flex-start">
      <Text size="sm" fw={600}>
        {t('deletedTitle')}
      </Text>
      <Text size="sm">{t('deletedText')}</Text>
      <Button
        size="xs"
        leftSection={<IconArrowBackUp size={16} aria-hidden />}
        loading={restoring.isLoading}
        onClick={() => void onRestore()}
      >
        {t('restoreRecord')}
      </Button>
    </Stack>
  );
}
