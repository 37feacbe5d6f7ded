import { type DateOrder, type DecimalMark, dateOrders, decimalMarks } from '@data-platform/shared/fields/cell-formats';
import type { ImportPreview } from '@data-platform/shared/imports';
import { Group, Radio } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { columnsNeedingMark, columnsNeedingOrder } from './wizard-logic.ts';

/**
 * How cells are read where a column's values leave it open: preselected as
 * the server suggested from the interface's language, changed here. Shown
 * only when a column (or a value for every row) needs it.
 */
function ReadingChoice<T extends string>({
  testId,
  needed,
  label,
  hint,
  value,
  options,
  onChange,
}: {
  testId: string;
  needed: boolean;
  label: string;
  hint: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (next: T) => void;
}) {
  if (!needed) return null;
  return (
    <Radio.Group
      data-testid={testId}
      label={label}
      description={hint}
      value={value}
      onChange={(next) => onChange(next as T)}
    >
      <Group mt="xs">
        {options.map((option) => (
          <Radio key={option.value} value={option.value} label={option.label} />
        ))}
      </Group>
    </Radio.Group>
  );
}

/** The headings as a hint names them. */
const quoted = (columns: readonly string[]) => columns.map((heading) => `“${heading}”`).join(', ');

/** When every date of a column could be read either way (01/02/2005), the order of day and month. */
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
  const columns = columnsNeedingOrder(preview);
  return (
    <ReadingChoice
      testId="import-date-order"
      needed={preview.dateOrderNeeded}
      label={t('wizard.dateOrder')}
      hint={
        columns.length > 0 ? t('wizard.dateOrderHint', { columns: quoted(columns) }) : t('wizard.dateOrderHintFixed')
      }
      value={value ?? preview.dateOrder}
      options={dateOrders.map((order) => ({ value: order, label: t(`wizard.dateOrders.${order}`) }))}
      onChange={onChange}
    />
  );
}

/** The translation key of each mark (a point or a comma cannot be a key). */
const markKey: Record<DecimalMark, 'point' | 'comma'> = { '.': 'point', ',': 'comma' };

/** When every number of a column has one mark that could be either (3,421 or 1.234: decimals, or thousands), which it is. */
export function DecimalMarkChoice({
  preview,
  value,
  onChange,
}: {
  preview: ImportPreview;
  /** The user's choice; null until they make one (the preview's suggestion is shown). */
  value: DecimalMark | null;
  onChange: (mark: DecimalMark) => void;
}) {
  const { t } = useTranslation('transfer');
  const columns = columnsNeedingMark(preview);
  return (
    <ReadingChoice
      testId="import-decimal-mark"
      needed={preview.decimalMarkNeeded}
      label={t('wizard.decimalMark')}
      hint={
        columns.length > 0
          ? t('wizard.decimalMarkHint', { columns: quoted(columns) })
          : t('wizard.decimalMarkHintFixed')
      }
      value={value ?? preview.decimalMark}
      options={decimalMarks.map((mark) => ({ value: mark, label: t(`wizard.decimalMarks.${markKey[mark]}`) }))}
      onChange={onChange}
    />
  );
}
