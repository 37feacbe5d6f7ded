import type { Money } from '@data-platform/shared/fields/field-types';
import { Group, NumberInput, Select } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useRecordQuery } from '../record-api.ts';
import { useCurrencies } from '../reference-data.ts';
import { NumberFilter, useNumberSeparators } from './number.tsx';
import { inputProps } from './text-input.tsx';
import type { ControlProps, FieldWidget } from './widget.ts';

type MoneyForm = { amount: number | ''; currency: string };

/**
 * The currency a new value takes from the record its `currencyFrom` sibling
 * picks (a commitment's, its deal's amount's): none when the field has no
 * such source or nothing is picked.
 */
function useSourceCurrency(props: ControlProps): string | undefined {
  const from = props.field.currencyFrom;
  const picked = useWatch({ control: props.control, name: from?.field ?? '__none' }) as string | number | null;
  const id = Number(picked);
  const { data } = useRecordQuery(
    { resource: from?.to ?? 'deals', id, select: from ? [from.money] : [] },
    { skip: !from || !Number.isInteger(id) || id <= 0 },
  );
  // The source is a money value (a deal's size) or a plain currency code (a fund's currency).
  const source = from && data ? (data[from.money] as Money | string | null | undefined) : undefined;
  return (typeof source === 'string' ? source : source?.currency) || undefined;
}

/**
 * An amount and its currency side by side; each shows its own error. The
 * amount is written and read in the interface's language; the currency
 * follows its source record while the user has not picked one.
 */
function MoneyControl(props: ControlProps) {
  const { t } = useTranslation('record');
  const currencies = useCurrencies();
  const separators = useNumberSeparators();
  const money = (props.value ?? { amount: '', currency: '' }) as MoneyForm;
  // A currency the value came with counts as the user's: only an empty one follows the source.
  const chosen = useRef(money.currency !== '');
  const source = useSourceCurrency(props);
  const { onChange } = props;
  useEffect(() => {
    if (!chosen.current && source && source !== money.currency) onChange({ ...money, currency: source });
  }, [source, money, onChange]);
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <NumberInput
        {...inputProps(props)}
        {...separators}
        style={{ flex: 1 }}
        value={money.amount}
        onChange={(next) => props.onChange({ ...money, amount: next === '' ? '' : Number(next) })}
        error={inputProps(props).error ?? props.partErrors?.amount?.message}
      />
      <Select
        label={t('form.currency', { field: props.label })}
        w={200}
        searchable
        data={currencies}
        value={money.currency || null}
        onChange={(next) => {
          chosen.current = true;
          props.onChange({ ...money, currency: next ?? '' });
        }}
        error={props.partErrors?.currency?.message}
        comboboxProps={{ width: 280, position: 'bottom-end' }}
      />
    </Group>
  );
}

/** Money: an amount in its currency; filtered by the amount. */
export const moneyWidget: FieldWidget = {
  Control: MoneyControl,
  Filter: NumberFilter,
};
