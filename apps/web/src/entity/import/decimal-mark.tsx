import { type DecimalMark, decimalMarks } from '@data-platform/shared/fields/cell-formats';
import type { ImportPreview } from '@data-platform/shared/imports';
import { Group, Radio } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { columnsNeedingMark } from './wizard-logic.ts';

/** The translation key of each mark (a point or a comma cannot be a key). */
const markKey: Record<DecimalMark, 'point' | 'comma'> = { '.': 'point', ',': 'comma' };

/**
 * When every number of a column has one mark that could be either (3,421 or
 * 1.234: decimals, or thousands), which it is: preselected as the server
 * suggested from the interface's language, changed here. Shown only when a
 * column needs it.
 */
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
  if (!preview.decimalMarkNeeded) return null;
  const columns = columnsNeedingMark(preview);
  return (
    <Radio.Group
      data-testid="import-decimal-mark"
      label={t('wizard.decimalMark')}
      description={
        columns.length > 0
          ? t('wizard.decimalMarkHint', { columns: columns.map((heading) => `“${heading}”`).join(', ') })
          : t('wizard.decimalMarkHintFixed')
      }
      value={value ?? preview.decimalMark}
      onChange={(next) => onChange(next as DecimalMark)}
    >
      <Group mt="xs">
        {decimalMarks.map((mark) => (
          <Radio key={mark} value={mark} label={t(`wizard.decimalMarks.${markKey[mark]}`)} />
        ))}
      </Group>
    </Radio.Group>
  );
}
