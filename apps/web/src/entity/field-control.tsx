import type { FieldDescription, FormValue } from '@data-platform/shared/fields/field-types';
import { type Control, Controller } from 'react-hook-form';
import type { Row } from '../store/resource-slices.ts';
import { fieldWidget } from './field-widgets/registry.ts';

export { ReferencePicker } from './field-widgets/reference.tsx';

interface ControlProps {
  name: string;
  field: FieldDescription;
  label: string;
  // biome-ignore lint/suspicious/noExplicitAny: react-hook-form's Control is invariant in the form's type.
  control: Control<any>;
  /** The record as loaded (with its joins), to name what references point at. */
  record?: Row;
  /** The form's fields by name (see `siblingsOf`). */
  siblings: Record<string, FieldDescription>;
}

/** The input of one field, as its type's widget draws it, bound to the form. */
export function FieldControl({ name, field, label, control, record, siblings }: ControlProps) {
  const { Control: Widget } = fieldWidget(field);
  return (
    <Controller
      name={name}
      control={control}
      render={({ field: input, fieldState }) => (
        <Widget
          name={name}
          field={field}
          label={label}
          value={input.value as FormValue}
          onChange={input.onChange}
          onBlur={input.onBlur}
          error={fieldState.error?.message}
          // A value of several inputs (money) has its errors per part (`revenue.amount`, `revenue.currency`).
          partErrors={fieldState.error as unknown as Record<string, { message?: string } | undefined> | undefined}
          control={control}
          record={record}
          siblings={siblings}
        />
      )}
    />
  );
}

/** The form's fields by name, for controls that depend on another (a state within a country, a phone's country). */
export function siblingsOf(fields: [string, FieldDescription][]): Record<string, FieldDescription> {
  return Object.fromEntries(fields);
}

/** Whether a field's control takes the form's whole width (long text). */
export function isWideControl(field: FieldDescription): boolean {
  return fieldWidget(field).wide === true;
}
