import { MultiSelect, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { inputProps } from './text-input.tsx';
import { type ControlProps, type FieldWidget, type FilterProps, optionLabel } from './widget.ts';

/** The field's options, each as people read it. */
function useOptions(options: readonly string[] | undefined) {
  const { t } = useTranslation(['common', 'options']);
  return (options ?? []).map((value) => ({ value, label: optionLabel(t, value) }));
}

/** One option, or several for `in`. */
function OptionsFilter({ field, label, value, onChange, several }: FilterProps) {
  const data = useOptions(field.options);
  return several ? (
    <MultiSelect
      label={label}
      data={data}
      value={value ? value.split(',') : []}
      onChange={(next) => onChange(next.length > 0 ? next.join(',') : undefined)}
      searchable
      comboboxProps={{ withinPortal: false }}
    />
  ) : (
    <Select
      label={label}
      data={data}
      value={value ?? null}
      onChange={(next) => onChange(next ?? undefined)}
      searchable
      clearable
      comboboxProps={{ withinPortal: false }}
    />
  );
}

function SelectControl(props: ControlProps) {
  const data = useOptions(props.field.options);
  return (
    <Select
      {...inputProps(props)}
      clearable={!props.field.required}
      searchable={data.length > 8}
      data={data}
      value={(props.value as string | null) ?? null}
      onChange={(next) => props.onChange(next)}
    />
  );
}

function MultiSelectControl(props: ControlProps) {
  const data = useOptions(props.field.options);
  return (
    <MultiSelect
      {...inputProps(props)}
      clearable
      searchable
      data={data}
      value={(props.value as string[]) ?? []}
      onChange={(next) => props.onChange(next)}
    />
  );
}

/** One of the field's options. */
export const selectWidget: FieldWidget = {
  Control: SelectControl,
  Filter: OptionsFilter,
};

/** Some of the field's options. */
export const multiSelectWidget: FieldWidget = {
  Control: MultiSelectControl,
  Filter: OptionsFilter,
};
