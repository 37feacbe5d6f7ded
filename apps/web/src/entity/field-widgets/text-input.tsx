import { localizeFieldMessage } from '@data-platform/shared/fields/field-messages';
import { TextInput } from '@mantine/core';
import { i18n } from '../../i18n/i18n.ts';
import type { ControlProps, FilterProps } from './widget.ts';

/**
 * The props every input of a form shares. A field's message (the form's own
 * check or the server's 400, both in English from the description) reads in
 * the interface's language with the field's label as the form shows it.
 */
export function inputProps({ label, field, error, onBlur, name }: ControlProps) {
  const shown = localizeFieldMessage(error, field, i18n.resolvedLanguage ?? i18n.language, label);
  return { label, description: field.help, required: field.required, error: shown, onBlur, name };
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
