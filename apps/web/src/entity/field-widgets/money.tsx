import { Group, NumberInput, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useCurrencies } from '../reference-data.ts';
import { NumberFilter } from './number.tsx';
import { inputProps } from './text-input.tsx';
import type { ControlProps, FieldWidget } from './widget.ts';

type MoneyForm = { amount: number | ''; currency: string };

/** An amount and its currency side by side; each shows its own error. */
function MoneyControl(props: ControlProps) {
  const { t } = useTranslation('record');
  const currencies = useCurrencies();
  const money = (props.value ?? { amount: '', currency: '' }) as MoneyForm;
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <NumberInput
        {...inputProps(props)}
        style={{ flex: 1 }}
        value={money.amount}
        thousandSeparator=" "
        onChange={(next) => props.onChange({ ...money, amount: next === '' ? '' : Number(next) })}
        error={props.error ?? props.partErrors?.amount?.message}
      />
      <Select
        label={t('form.currency', { field: props.label })}
        w={110}
        searchable
        data={currencies}
        value={money.currency || null}
        onChange={(next) => props.onChange({ ...money, currency: next ?? '' })}
        error={props.partErrors?.currency?.message}
      />
    </Group>
  );
}

/** Money: an amount in its currency; filtered by the amount. */
export const moneyWidget: FieldWidget = {
  Control: MoneyControl,
  Filter: NumberFilter,
};
