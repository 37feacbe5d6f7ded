import { boundsOf } from '@data-platform/shared/fields/field-messages';
import { fieldTypeModule } from '@data-platform/shared/fields/field-types';
import { NumberInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { numberSeparators } from '../../i18n/format.ts';
import { inputProps } from './text-input.tsx';
import type { ControlProps, FieldWidget, FilterProps } from './widget.ts';

/**
 * How a number input writes and reads numbers in the interface's language:
 * `1,234,567.89` in English, `1 234 567,89` in French. Only the language's
 * decimal separator is one (a comma typed in English groups, it is no
 * decimal point); French takes the point too, which it never groups with.
 */
export function useNumberSeparators(grouping = true) {
  const { i18n } = useTranslation();
  const { thousand, decimal } = numberSeparators(i18n.resolvedLanguage ?? i18n.language);
  return {
    thousandSeparator: grouping ? thousand : undefined,
    decimalSeparator: decimal,
    allowedDecimalSeparators: decimal === '.' ? ['.'] : [decimal, '.'],
  };
}

/** The number input of a form, as the type's widget spec says (decimals, grouping, bounds, suffix). */
export function NumberControl(props: ControlProps) {
  const spec = fieldTypeModule(props.field.type).widget;
  const separators = useNumberSeparators(spec.grouping !== false);
  const bounds = boundsOf(props.field);
  return (
    <NumberInput
      {...inputProps(props)}
      {...separators}
      value={props.value as number | ''}
      onChange={(next) => props.onChange(next === '' ? '' : Number(next))}
      allowDecimal={spec.decimals !== false}
      min={bounds.min ?? spec.min}
      max={bounds.max ?? spec.max}
      suffix={spec.suffix}
      clampBehavior="none"
    />
  );
}

/** A number typed in a filter, as digits. */
export function NumberFilter({ field, label, value, onChange }: FilterProps) {
  const separators = useNumberSeparators(fieldTypeModule(field.type).widget.grouping !== false);
  return (
    <NumberInput
      {...separators}
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
