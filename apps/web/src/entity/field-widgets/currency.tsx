import { Select } from '@mantine/core';
import { useCurrencies } from '../reference-data.ts';
import { inputProps, TextFilter } from './text-input.tsx';
import type { ControlProps, FieldWidget } from './widget.ts';

function CurrencyControl(props: ControlProps) {
  const currencies = useCurrencies();
  return (
    <Select
      {...inputProps(props)}
      searchable
      data={currencies}
      value={(props.value as string) || null}
      onChange={(next) => props.onChange(next ?? '')}
    />
  );
}

/** A currency picked from the currencies the platform knows, each read with its name (`USD · US Dollar`). */
export const currencyWidget: FieldWidget = {
  Control: CurrencyControl,
  Filter: TextFilter,
};
