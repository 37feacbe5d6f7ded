import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The end of a form: Cancel, then the submit button named for what it does (Create, Save, Send invitation). */
export function FormButtons({
  submitLabel,
  onCancel,
  working = false,
  disabled = false,
}: {
  submitLabel: string;
  onCancel: () => void;
  working?: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        {t('actions.cancel')}
      </Button>
      <Button type="submit" loading={working} disabled={disabled}>
        {submitLabel}
      </Button>
    </Group>
  );
}
