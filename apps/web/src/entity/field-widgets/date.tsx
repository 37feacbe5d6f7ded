import { TextInput } from '@mantine/core';
import { inputProps } from './text-input.tsx';
import type { FieldWidget, FilterProps } from './widget.ts';

/** A day picked in a filter (a date and time filters by days too). */
function DateFilter({ label, value, onChange }: FilterProps) {
  return (
    <TextInput
      type="date"
      label={label}
      value={value ?? ''}
      onChange={(event) => onChange(event.currentTarget.value || undefined)}
    />
  );
}

/** A calendar day: the browser's date input, the language's date format. */
export const dateWidget: FieldWidget = {
  Control: (props) => (
    <TextInput
      {...inputProps(props)}
      type="date"
      value={String(props.value ?? '')}
      onChange={(e) => props.onChange(e.currentTarget.value)}
    />
  ),
  Filter: DateFilter,
};

/** An instant: a local date and time input, the language's format. */
export const datetimeWidget: FieldWidget = {
  Control: (props) => (
    <TextInput
      {...inputProps(props)}
      type="datetime-local"
      value={String(props.value ?? '')}
      onChange={(e) => props.onChange(e.currentTarget.value)}
    />
  ),
  Filter: DateFilter,
};
