import { fieldTypeModule } from '@data-platform/shared/fields/field-types';
import { NumberInput } from '@mantine/core';
import { inputProps } from './text-input.tsx';
import type { ControlProps, FieldWidget, FilterProps } from './widget.ts';

/** The number input of a form, as the type's widget spec says (decimals, grouping, bounds, suffix). */
export function NumberControl(props: ControlProps) {
  const spec = fieldTypeModule(props.field.type).widget;
  return (
    <NumberInput
      {...inputProps(props)}
      value={props.value as number | ''}
      onChange={(next) => props.onChange(next === '' ? '' : Number(next))}
      allowDecimal={spec.decimals !== false}
      thousandSeparator={spec.grouping === false ? undefined : ' '}
      min={spec.min ?? props.field.min}
      max={spec.max ?? props.field.max}
      suffix={spec.suffix}
      clampBehavior="none"
    />
  );
}

/** A number typed in a filter, as digits. */
export function NumberFilter({ field, label, value, onChange }: FilterProps) {
  return (
    <NumberInput
      label={label}
      value={value ?? ''}
      onChange={(next) => onChange(next === '' ? undefined : String(next))}
      allowDecimal={fieldTypeModule(field.type).widget.decimals !== false}
    />
  );
}

/** A number, in the language's format (or as it is: a year). */
export const numberWidget: FieldWidget = { Control: NumberControl, Filter: NumberFilter };

/** An amount: as money in the currency its sibling field holds, when that is set. */
export const amountWidget: FieldWidget = {
  Control: NumberControl,
  Filter: NumberFilter,
};
