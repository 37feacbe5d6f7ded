import { Checkbox, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FieldWidget, FilterProps } from './widget.ts';

function BooleanFilter({ label, value, onChange }: FilterProps) {
  const { t } = useTranslation('common');
  return (
    <Select
      label={label}
      data={[
        { value: 'true', label: t('values.yes') },
        { value: 'false', label: t('values.no') },
      ]}
      value={value ?? null}
      onChange={(next) => onChange(next ?? undefined)}
      comboboxProps={{ withinPortal: false }}
    />
  );
}

/** Yes or no: a checkbox, read as "Yes"/"No". */
export const booleanWidget: FieldWidget = {
  Control: ({ label, error, value, onChange, field }) => (
    <Checkbox
      label={label}
      // The field's help text, under the box as under every other input.
      description={field.help}
      error={error}
      checked={value === true}
      onChange={(e) => onChange(e.currentTarget.checked)}
    />
  ),
  Filter: BooleanFilter,
};
