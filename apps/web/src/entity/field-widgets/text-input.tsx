import { TextInput } from '@mantine/core';
import type { ControlProps, FilterProps } from './widget.ts';

/** The props every input of a form shares. */
export function inputProps({ label, field, error, onBlur, name }: ControlProps) {
  return { label, description: field.help, required: field.required, error, onBlur, name };
}

/** A one-line text input of a form (`type` for the browser's keyboard and checks). */
export function TextControl(props: ControlProps & { type?: string }) {
  return (
    <TextInput
      {...inputProps(props)}
      type={props.type ?? 'text'}
      value={String(props.value ?? '')}
      onChange={(e) => props.onChange(e.currentTarget.value)}
    />
  );
}

/** Filter text typed as it is. */
export function TextFilter({ label, value, onChange }: FilterProps) {
  return (
    <TextInput
      label={label}
      value={value ?? ''}
      onChange={(event) => onChange(event.currentTarget.value === '' ? undefined : event.currentTarget.value)}
    />
  );
}
