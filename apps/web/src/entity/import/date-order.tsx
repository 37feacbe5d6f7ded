import { type DateOrder, dateOrders } from '@data-platform/shared/fields/cell-formats';
import type { ImportPreview } from '@data-platform/shared/imports';
import { Group, Radio } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { columnsNeedingOrder } from './wizard-logic.ts';

/**
 * When every date of a column could be read either way (01/02/2005), the
 * order of day and month: preselected as the server suggested from the
 * interface's language, changed here. Shown only when a column needs it.
 */
export function DateOrderChoice({
  preview,
  value,
  onChange,
}: {
  preview: ImportPreview;
  /** The user's choice; null until they make one (the preview's suggestion is shown). */
  value: DateOrder | null;
  onChange: (order: DateOrder) => void;
}) {
  const { t } = useTranslation('transfer');
  if (!preview.dateOrderNeeded) return null;
  const columns = columnsNeedingOrder(preview);
  return (
    <Radio.Group
      data-testid="import-date-order"
      label={t('wizard.dateOrder')}
      description={
        columns.length > 0
          ? t('wizard.dateOrderHint', { columns: columns.map((heading) => `“${heading}”`).join(', ') })
          : t('wizard.dateOrderHintFixed')
      }
      value={value ?? preview.dateOrder}
      onChange={(next) => onChange(next as DateOrder)}
    >
      <Group mt="xs">
        {dateOrders.map((order) => (
          <Radio key={order} value={order} label={t(`wizard.dateOrders.${order}`)} />
        ))}
      </Group>
    </Radio.Group>
  );
}
