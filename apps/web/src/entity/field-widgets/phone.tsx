import { Group, Select, TextInput } from '@mantine/core';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { joinPhone, splitPhone } from '../record-values.ts';
import { useCountries } from '../reference-data.ts';
import { inputProps, TextFilter } from './text-input.tsx';
import type { ControlProps, FieldWidget } from './widget.ts';

/**
 * A country calling code picked from the countries' codes, then the number.
 * A new number starts with the code of the country the record's
 * `givesPhoneCode` field names.
 */
function PhoneControl(props: ControlProps) {
  const { t } = useTranslation('record');
  const countries = useCountries();
  const countryField = Object.entries(props.siblings).find(([, field]) => field.givesPhoneCode)?.[0];
  const country = useWatch({ control: props.control, name: countryField ?? '__none' }) as string | null | undefined;
  const countryCode = countries.find((c) => String(c.id) === country)?.phoneCode ?? '';
  const codes = [...new Set(countries.map((c) => c.phoneCode).filter((c): c is string => Boolean(c)))].sort();
  const parts = splitPhone(String(props.value ?? ''), codes);
  const code = parts.code || (parts.number ? '' : countryCode);
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <Select
        label={t('form.phoneCode')}
        w={120}
        searchable
        clearable
        data={codes}
        value={code || null}
        onChange={(next) => props.onChange(joinPhone(next ?? '', parts.number))}
      />
      <TextInput
        {...inputProps(props)}
        style={{ flex: 1 }}
        type="tel"
        value={parts.number}
        onChange={(e) => props.onChange(joinPhone(code, e.currentTarget.value))}
      />
    </Group>
  );
}

/** A phone number: its calling code and the rest, typed apart. */
export const phoneWidget: FieldWidget = {
  Control: PhoneControl,
  Filter: TextFilter,
};
