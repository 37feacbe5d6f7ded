import { findEntity } from '@data-platform/shared/entities/registry';
import type { FieldDescription } from '@data-platform/shared/fields/field-types';
import { MultiSelect, NumberInput, Select, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../store/hooks.ts';
import { recordName, searchRecords } from './record-calls.ts';

const SEARCH_DELAY_MS = 250;

interface Option {
  value: string;
  label: string;
}

/** Picks a record of `resource` by searching its searchable fields with `q`. */
export function ReferencePicker({
  resource,
  label,
  value,
  onChange,
}: {
  resource: string;
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined, name?: string) => void;
}) {
  const { t } = useTranslation();
  const token = useAppSelector((state) => state.auth.token);
  const target = findEntity(resource);
  const display = target?.display ?? 'name';
  const [text, setText] = useState('');
  const [options, setOptions] = useState<Option[]>([]);
  const [chosen, setChosen] = useState<Option | undefined>();

  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      searchRecords(resource, display, text, token).then(
        (found) => live && setOptions(found),
        () => live && setOptions([]),
      );
    }, SEARCH_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [resource, display, text, token]);

  const data = chosen && !options.some((o) => o.value === chosen.value) ? [chosen, ...options] : options;
  return (
    <Select
      label={label}
      placeholder={t('list.searchToPick')}
      searchable
      clearable
      data={data}
      value={value ?? null}
      onSearchChange={setText}
      filter={({ options: all }) => all}
      nothingFoundMessage={t('list.nothingFound')}
      onChange={(next, option) => {
        setChosen(option ?? undefined);
        onChange(next ?? undefined, option?.label);
      }}
      comboboxProps={{ withinPortal: false }}
    />
  );
}

/** The name of a referenced record, fetched once per id. */
export function ReferenceName({ resource, id }: { resource: string; id: string }) {
  const token = useAppSelector((state) => state.auth.token);
  const [name, setName] = useState<string>(`#${id}`);
  useEffect(() => {
    const target = findEntity(resource);
    if (!target || !/^\d+$/.test(id)) return;
    let live = true;
    recordName(resource, target.display, Number(id), token).then(
      (found) => live && setName(found),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [resource, id, token]);
  return <>{name}</>;
}

/**
 * One value of a field, typed as text the way the list grammar writes it:
 * numbers as digits, dates as YYYY-MM-DD, yes/no as true/false, picklist
 * values as themselves (several, comma-separated, with `several`).
 */
export function ValueInput({
  field,
  label,
  value,
  onChange,
  several = false,
}: {
  field: FieldDescription;
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined, name?: string) => void;
  several?: boolean;
}) {
  const { t } = useTranslation(['common', 'options']);
  const option = (text: string) => ({
    value: text,
    label: t(text, { ns: 'options', keySeparator: false, nsSeparator: false }),
  });
  switch (field.type) {
    case 'reference':
      return field.to ? <ReferencePicker resource={field.to} label={label} value={value} onChange={onChange} /> : null;
    case 'select':
    case 'multiSelect':
      return several ? (
        <MultiSelect
          label={label}
          data={(field.options ?? []).map(option)}
          value={value ? value.split(',') : []}
          onChange={(next) => onChange(next.length > 0 ? next.join(',') : undefined)}
          searchable
          comboboxProps={{ withinPortal: false }}
        />
      ) : (
        <Select
          label={label}
          data={(field.options ?? []).map(option)}
          value={value ?? null}
          onChange={(next) => onChange(next ?? undefined)}
          searchable
          clearable
          comboboxProps={{ withinPortal: false }}
        />
      );
    case 'boolean':
      return (
        <Select
          label={label}
          data={[
            { value: 'true', label: t('values.yes') },
            { value: 'false', label: t('values.no') },
          ]}
          value={value ?? null}
          onChange={(next) => onChange(next ?? undefined)}
          comboboxProps={{ withinPortal: false }}
        />
      );
    case 'integer':
    case 'decimal':
    case 'percent':
    case 'year':
    case 'money':
    case 'amount':
      return (
        <NumberInput
          label={label}
          value={value ?? ''}
          onChange={(next) => onChange(next === '' ? undefined : String(next))}
          allowDecimal={field.type !== 'integer' && field.type !== 'year'}
        />
      );
    case 'date':
    case 'datetime':
      return (
        <TextInput
          type="date"
          label={label}
          value={value ?? ''}
          onChange={(event) => onChange(event.currentTarget.value || undefined)}
        />
      );
    default:
      return (
        <TextInput
          label={label}
          value={value ?? ''}
          onChange={(event) => onChange(event.currentTarget.value === '' ? undefined : event.currentTarget.value)}
        />
      );
  }
}
