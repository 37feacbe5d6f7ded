import { Group, Select, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { nameFilter, useLocalizedNames } from '../localized-names.tsx';
import { joinPhone, phoneCodeOptions, splitPhone } from '../record-values.ts';
import { useCountries } from '../reference-data.ts';
import { inputProps, TextFilter } from './text-input.tsx';
import type { ControlProps, FieldWidget } from './widget.ts';

/**
 * A country calling code picked among the countries, each read with its
 * name in the interface's language (`+55 Brazil`, French `+55 Brésil`),
 * then the number. A new number starts with the code of the country the
 * record's `givesPhoneCode` field names.
 */
function PhoneControl(props: ControlProps) {
  const { t, i18n } = useTranslation('record');
  const language = i18n.resolvedLanguage ?? i18n.language;
  const countries = useCountries();
  const names = useLocalizedNames('countries');
  const countryField = Object.entries(props.siblings).find(([, field]) => field.givesPhoneCode)?.[0];
  const country = useWatch({ control: props.control, name: countryField ?? '__none' }) as string | null | undefined;
  const options = useMemo(
    () => phoneCodeOptions(countries.map((country) => ({ ...country, name: names.name(country.id, country.name) }))),
    [countries, names],
  );
  const filter = useMemo(() => nameFilter(language), [language]);
  const codes = useMemo(() => [...new Set(options.map((option) => option.code))], [options]);
  // The country the user picked: several share a code (+1), the pick says which one the code reads with.
  const [picked, setPicked] = useState<string | null>(null);
  const parts = splitPhone(String(props.value ?? ''), codes);
  const countryOption = options.find((option) => option.value === country);
  const pickedOption = options.find((option) => option.value === picked);
  const code = parts.code || (parts.number ? '' : ((pickedOption ?? countryOption)?.code ?? ''));
  const byCode = (option: { value: string; code: string } | undefined) =>
    option && option.code === code ? option : undefined;
  const shown = byCode(pickedOption) ?? byCode(countryOption) ?? options.find((option) => option.code === code);
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <Select
        label={t('form.phoneCode')}
        w={190}
        searchable
        clearable
        data={options}
        filter={filter}
        value={shown?.value ?? null}
        onChange={(next) => {
          setPicked(next);
          const nextCode = options.find((option) => option.value === next)?.code ?? '';
          props.onChange(joinPhone(nextCode, parts.number));
        }}
        comboboxProps={{ width: 260, position: 'bottom-start' }}
      />
      <TextInput
        {...inputProps(props)}
        style={{ flex: 1 }}
        type="tel"
        value={parts.number}
        onChange={(e) => props.onChange(joinPhone(shown?.code ?? code, e.currentTarget.value))}
      />
    </Group>
  );
}

/** A phone number: its calling code and the rest, typed apart. */
export const phoneWidget: FieldWidget = {
  Control: PhoneControl,
  Filter: TextFilter,
};
