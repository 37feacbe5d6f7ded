import { fieldTypeModule } from '@data-platform/shared/fields/field-types';
import { NumberInput } from '@mantine/core';
import { inputProps } from './text-input.tsx';
import type { CellContext, ControlProps, FieldWidget, FilterProps } from './widget.ts';

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

function numberCell(value: unknown, { field, format }: CellContext) {
  const display = fieldTypeModule(field.type).widget.display ?? 'number';
  if (display === 'plain') return String(value);
  return display === 'percent' ? format.percent(Number(value)) : format.number(Number(value));
}

/** A number, in the language's format (or as it is: a year). */
export const numberWidget: FieldWidget = { Control: NumberControl, cell: numberCell, Filter: NumberFilter };

/** An amount: as money in the currency its sibling field holds, when that is set. */
export const amountWidget: FieldWidget = {
  Control: NumberControl,
  cell: (value, { row, field, format }) => {
    const currency = field.currencyField ? row[field.currencyField] : undefined;
    return typeof currency === 'string' && typeof value === 'number'
      ? format.money({ amount: value, currency })
      : format.number(Number(value));
  },
  Filter: NumberFilter,
};
