import { referenceRelationName } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import type { FieldDescription } from '@data-platform/shared/fields/field-types';
import { Checkbox, Group, MultiSelect, NumberInput, Select, TagsInput, Textarea, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { type Control, Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { Row } from '../store/resource-slices.ts';
import { useSearchQuery } from './record-api.ts';
import type { FormValue } from './record-values.ts';
import { joinPhone, splitPhone } from './record-values.ts';
import { useCountries, useCurrencies } from './reference-data.ts';

interface Option {
  value: string;
  label: string;
}

/** Shows every option the server answered: it already searched. */
const serverFiltered = ({ options }: { options: unknown[] }) => options as never;

/** A record of another resource picked by searching it (`q`), named by its display field. */
export function ReferencePicker({
  to,
  value,
  onChange,
  initialLabel,
  label,
  error,
  required,
}: {
  to: string;
  value: string | null;
  onChange: (value: string | null) => void;
  initialLabel?: string;
  label: string;
  error?: string;
  required?: boolean;
}) {
  const { t } = useTranslation('record');
  const target = findEntity(to);
  const display = target?.display ?? 'id';
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 250);
  const [known, setKnown] = useState<Option | undefined>(
    value && initialLabel ? { value, label: initialLabel } : undefined,
  );
  const selectedLabel = known?.value === value ? known.label : undefined;
  const { data: rows = [], isFetching } = useSearchQuery(
    { resource: to, display, q: q === selectedLabel ? '' : q },
    { skip: !target },
  );
  const options = useMemo(() => {
    const found = rows.map((row) => ({ value: String(row.id), label: String(row[display] ?? row.id) }));
    if (known && known.value === value && !found.some((o) => o.value === known.value)) found.unshift(known);
    return found;
  }, [rows, display, known, value]);
  return (
    <Select
      label={label}
      required={required}
      error={error}
      searchable
      clearable
      data={options}
      value={value}
      filter={serverFiltered}
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage={isFetching ? t('search.loading') : t('search.none')}
      onChange={(next, option) => {
        setKnown(option ? { value: option.value, label: option.label } : undefined);
        onChange(next);
      }}
    />
  );
}

interface ControlProps {
  name: string;
  field: FieldDescription;
  label: string;
  // biome-ignore lint/suspicious/noExplicitAny: react-hook-form's Control is invariant in the form's type.
  control: Control<any>;
  /** The record as loaded (with its joins), to name what references point at. */
  record?: Row;
  /** Names of the form's other fields by the resource they reference (the state's country, the phone's country). */
  siblings: Record<string, string>;
}

/** The input of one field, chosen by its type, bound to the form. */
export function FieldControl({ name, field, label, control, record, siblings }: ControlProps) {
  const { t } = useTranslation(['record', 'options']);
  const currencies = useCurrencies();
  const countries = useCountries();
  const countryField = siblings.countries;
  const country = useWatch({ control, name: countryField ?? '__none' }) as string | null | undefined;
  const countryRow = countries.find((c) => String(c.id) === country);
  const option = (text: string) => ({
    value: text,
    label: t(text, { ns: 'options', keySeparator: false, nsSeparator: false }),
  });
  const required = field.required;

  return (
    <Controller
      name={name}
      control={control}
      render={({ field: input, fieldState }) => {
        const error = fieldState.error?.message;
        // A money value's errors come per part (`revenue.amount`, `revenue.currency`).
        const parts = fieldState.error as unknown as Record<string, { message?: string } | undefined> | undefined;
        const value = input.value as FormValue;
        const common = { label, description: field.help, required, error, onBlur: input.onBlur, name };
        switch (field.type) {
          case 'longText':
            return (
              <Textarea
                {...common}
                autosize
                minRows={3}
                maxRows={12}
                value={String(value ?? '')}
                onChange={(e) => input.onChange(e.currentTarget.value)}
              />
            );
          case 'integer':
          case 'year':
          case 'decimal':
          case 'percent':
          case 'amount':
            return (
              <NumberInput
                {...common}
                value={value as number | ''}
                onChange={(next) => input.onChange(next === '' ? '' : Number(next))}
                allowDecimal={field.type !== 'integer' && field.type !== 'year'}
                thousandSeparator={field.type === 'year' ? undefined : ' '}
                min={field.type === 'year' ? 1800 : field.min}
                max={field.type === 'year' ? 2200 : field.max}
                suffix={field.type === 'percent' ? ' %' : undefined}
                clampBehavior="none"
              />
            );
          case 'money': {
            const money = (value ?? { amount: '', currency: '' }) as { amount: number | ''; currency: string };
            return (
              <Group gap="xs" align="flex-start" wrap="nowrap">
                <NumberInput
                  {...common}
                  style={{ flex: 1 }}
                  value={money.amount}
                  thousandSeparator=" "
                  onChange={(next) => input.onChange({ ...money, amount: next === '' ? '' : Number(next) })}
                  error={error ?? parts?.amount?.message}
                />
                <Select
                  label={t('form.currency', { field: label })}
                  w={110}
                  searchable
                  data={currencies}
                  value={money.currency || null}
                  onChange={(next) => input.onChange({ ...money, currency: next ?? '' })}
                  error={parts?.currency?.message}
                />
              </Group>
            );
          }
          case 'currency':
            return (
              <Select
                {...common}
                searchable
                data={currencies}
                value={(value as string) || null}
                onChange={(next) => input.onChange(next ?? '')}
              />
            );
          case 'date':
          case 'datetime':
            return (
              <TextInput
                {...common}
                type={field.type === 'date' ? 'date' : 'datetime-local'}
                value={String(value ?? '')}
                onChange={(e) => input.onChange(e.currentTarget.value)}
              />
            );
          case 'boolean':
            return (
              <Checkbox
                label={label}
                error={error}
                checked={value === true}
                onChange={(e) => input.onChange(e.currentTarget.checked)}
              />
            );
          case 'select':
            return (
              <Select
                {...common}
                clearable={!required}
                searchable={(field.options?.length ?? 0) > 8}
                data={(field.options ?? []).map(option)}
                value={(value as string | null) ?? null}
                onChange={(next) => input.onChange(next)}
              />
            );
          case 'multiSelect':
            return (
              <MultiSelect
                {...common}
                clearable
                searchable
                data={(field.options ?? []).map(option)}
                value={(value as string[]) ?? []}
                onChange={(next) => input.onChange(next)}
              />
            );
          case 'tags':
          case 'emails':
            return (
              <TagsInput
                {...common}
                clearable
                value={(value as string[]) ?? []}
                onChange={(next) => input.onChange(next)}
              />
            );
          case 'phone': {
            const codes = [...new Set(countries.map((c) => c.phoneCode).filter((c): c is string => Boolean(c)))].sort();
            const parts = splitPhone(String(value ?? ''), codes);
            const code = parts.code || (parts.number ? '' : (countryRow?.phoneCode ?? ''));
            return (
              <Group gap="xs" align="flex-start" wrap="nowrap">
                <Select
                  label={t('form.phoneCode')}
                  w={120}
                  searchable
                  clearable
                  data={codes}
                  value={code || null}
                  onChange={(next) => input.onChange(joinPhone(next ?? '', parts.number))}
                />
                <TextInput
                  {...common}
                  style={{ flex: 1 }}
                  type="tel"
                  value={parts.number}
                  onChange={(e) => input.onChange(joinPhone(code, e.currentTarget.value))}
                />
              </Group>
            );
          }
          case 'reference': {
            if (field.to === 'countries') {
              return (
                <Select
                  {...common}
                  searchable
                  clearable={!required}
                  data={countries.map((c) => ({ value: String(c.id), label: `${c.emoji ?? ''} ${c.name}`.trim() }))}
                  value={(value as string | null) ?? null}
                  onChange={(next) => input.onChange(next)}
                />
              );
            }
            if (field.to === 'states' && countryField) {
              const states = countryRow?.states ?? [];
              return (
                <Select
                  {...common}
                  searchable
                  clearable={!required}
                  disabled={!countryRow}
                  placeholder={countryRow ? undefined : t('form.countryFirst')}
                  data={states.map((s) => ({ value: String(s.id), label: s.name }))}
                  value={states.some((s) => String(s.id) === value) ? (value as string) : null}
                  onChange={(next) => input.onChange(next)}
                />
              );
            }
            const related = record?.[referenceRelationName(name)] as Row | null | undefined;
            const target = field.to ? findEntity(field.to) : undefined;
            const initialLabel = related && target ? String(related[target.display] ?? '') : undefined;
            return (
              <ReferencePicker
                to={field.to ?? ''}
                label={label}
                required={required}
                error={error}
                value={(value as string | null) ?? null}
                initialLabel={initialLabel}
                onChange={(next) => input.onChange(next)}
              />
            );
          }
          case 'email':
          case 'url':
          case 'text':
            return (
              <TextInput
                {...common}
                type={field.type === 'email' ? 'email' : field.type === 'url' ? 'url' : 'text'}
                value={String(value ?? '')}
                onChange={(e) => input.onChange(e.currentTarget.value)}
              />
            );
        }
      }}
    />
  );
}

/** The form's reference fields by the resource they point at: `{ countries: 'hqCountryId' }`. */
export function siblingsOf(fields: [string, FieldDescription][]): Record<string, string> {
  return Object.fromEntries(fields.flatMap(([name, field]) => (field.to ? [[field.to, name]] : [])));
}
