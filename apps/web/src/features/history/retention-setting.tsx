import { MAX_RETENTION_DAYS, MIN_RETENTION_DAYS } from '@data-platform/shared/history';
import { Button, Card, Group, NumberInput, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useHistorySettingsQuery, useSaveHistorySettingsMutation } from './history-api.ts';

/**
 * The administrator's retention period of deleted records (days a deleted
 * record can be restored with its links, notes and files), on the users
 * screen beside the access requests. Loaded with its texts when first shown.
 */
export default function RetentionSetting() {
  const { t } = useTranslation('history');
  const { data } = useHistorySettingsQuery();
  const [save, saving] = useSaveHistorySettingsMutation();
  const [days, setDays] = useState<number | string>('');
  useEffect(() => {
    if (data) setDays(data.retentionDays);
  }, [data]);
  const valid =
    typeof days === 'number' && Number.isInteger(days) && days >= MIN_RETENTION_DAYS && days <= MAX_RETENTION_DAYS;
  const onSave = async () => {
    if (!valid) return;
    const result = await save({ retentionDays: days });
    if (!('error' in result)) toast.success(t('retentionSaved'));
  };
  return (
    <Card withBorder component="section" aria-labelledby="retention-title" mb="md">
      <Text id="retention-title" fw={600} size="sm" mb="xs">
        {t('retentionTitle')}
      </Text>
      <Group align="flex-end" gap="sm">
        <NumberInput
          label={t('retentionLabel')}
          value={days}
          onChange={setDays}
          min={MIN_RETENTION_DAYS}
          max={MAX_RETENTION_DAYS}
          allowDecimal={false}
          w={320}
          size="xs"
        />
        <Button
          size="xs"
          onClick={() => void onSave()}
          disabled={!valid || days === data?.retentionDays}
          loading={saving.isLoading}
        >
          {t('save')}
        </Button>
      </Group>
    </Card>
  );
}
