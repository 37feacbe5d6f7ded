import { referenceRelationName } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import { Anchor, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';
import type { Row } from '../../store/resource-slices.ts';
import { nameFilter, useLocalizedNames } from '../localized-names.tsx';
import { useRecordQuery, useSearchQuery } from '../record-api.ts';
import { recordPath } from '../record-routes.ts';
import { inputProps } from './text-input.tsx';
import type { ControlProps, FieldWidget, FilterProps, ValueProps } from './widget.ts';

interface Option {
  value: string;
  label: string;
}

/** Shows every option the server answered for the text typed: it already searched (by other fields too). */
const serverFiltered = ({ options }: { options: unknown[] }) => options as never;

/**
 * A record of another resource picked by searching it (`q`), named by its
 * display field; a country among those the store holds, named and searched
 * in the interface's language (the server's `q` knows the English names only).
 */
export function ReferencePicker({
  to,
  value,
  onChange,
  initialLabel,
  label,
  error,
  required,
  placeholder,
  inPopover = false,
}: {
  to: string;
  value: string | null;
  /** The picked record's id and name (null when cleared). */
  onChange: (value: string | null, label?: string) => void;
  initialLabel?: string;
  label: string;
  error?: string;
  required?: boolean;
  placeholder?: string;
  /** Inside a popover (a filter form): the options open in place rather than in a portal. */
  inPopover?: boolean;
}) {
  const { t, i18n } = useTranslation('record');
  const language = i18n.resolvedLanguage ?? i18n.language;
  const target = findEntity(to);
  const display = target?.display ?? 'id';
  const localizedNames = useLocalizedNames(to);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 250);
  const [known, setKnown] = useState<Option | undefined>(
    value && initialLabel ? { value, label: initialLabel } : undefined,
  );
  const selectedLabel = known?.value === value ? known.label : undefined;
  const asked = q === selectedLabel ? '' : q;
  const {
    data: rows = [],
    currentData,
    isFetching,
  } = useSearchQuery({ resource: to, display, q: asked }, { skip: !target || localizedNames.localized });
  // The server's answer for the text typed is not in yet (the search waits for typing to pause, then for the
  // server): meanwhile the last answer's options that hold the text are shown, so the list follows the typing at
  // once rather than reordering under the pointer when the answer comes (a click landing on another option).
  const answered = currentData !== undefined && search.trim() === asked.trim();
  const options = useMemo(() => {
    if (localizedNames.localized) {
      const all = [...localizedNames.options];
      if (known && known.value === value && !all.some((o) => o.value === known.value)) all.unshift(known);
      return all;
    }
    const found = rows.map((row) => ({ value: String(row.id), label: String(row[display] ?? row.id) }));
    if (known && known.value === value && !found.some((o) => o.value === known.value)) found.unshift(known);
    return found;
  }, [localizedNames, rows, display, known, value]);
  const filter = useMemo(
    () => (localizedNames.localized || !answered ? nameFilter(language) : serverFiltered),
    [localizedNames.localized, answered, language],
  );
  return (
    <Select
      label={label}
      required={required}
      error={error}
      placeholder={placeholder}
      searchable
      clearable
      data={options}
      value={value}
      filter={filter}
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage={
        !localizedNames.localized && (isFetching || !answered) ? t('search.loading') : t('search.none')
      }
      comboboxProps={inPopover ? { withinPortal: false } : undefined}
      onChange={(next, option) => {
        setKnown(option ? { value: option.value, label: option.label } : undefined);
        onChange(next, option?.label);
      }}
    />
  );
}

/**
 * A reference whose choices are the records of a relation of the record
 * another field picked (`field.within`): a state of the picked country.
 * Nothing to pick until that one is.
 */
function WithinPicker(props: ControlProps & { within: { field: string; relation: string } }) {
  const { t } = useTranslation('record');
  const { field, within, control, siblings } = props;
  const parentTo = siblings[within.field]?.to;
  const parent = useWatch({ control, name: within.field }) as string | null | undefined;
  const display = (field.to && findEntity(field.to)?.display) || 'id';
  const { data } = useRecordQuery(
    { resource: parentTo ?? '', id: Number(parent), join: [`${within.relation}(id,${display})`] },
    { skip: !parent || !parentTo },
  );
  const rows = parent ? ((data?.[within.relation] as Row[] | undefined) ?? []) : [];
  const value = props.value as string | null;
  return (
    <Select
      {...inputProps(props)}
      searchable
      clearable={!field.required}
      disabled={!parent}
      placeholder={parent ? undefined : t('form.countryFirst')}
      data={rows.map((row) => ({ value: String(row.id), label: String(row[display] ?? row.id) }))}
      value={rows.some((row) => String(row.id) === value) ? value : null}
      onChange={(next) => props.onChange(next)}
    />
  );
}

function ReferenceControl(props: ControlProps) {
  const { field, name, record } = props;
  const localizedNames = useLocalizedNames(field.to);
  if (field.within && props.siblings[field.within.field]) return <WithinPicker {...props} within={field.within} />;
  const related = record?.[referenceRelationName(name)] as Row | null | undefined;
  const target = field.to ? findEntity(field.to) : undefined;
  const initialLabel =
    related && target
      ? localizedNames.name(related.id ?? props.value, String(related[target.display] ?? ''))
      : undefined;
  return (
    <ReferencePicker
      to={field.to ?? ''}
      label={props.label}
      required={field.required}
      error={props.error}
      value={(props.value as string | null) ?? null}
      initialLabel={initialLabel}
      onChange={(next) => props.onChange(next)}
    />
  );
}

function ReferenceFilter({ field, label, value, onChange }: FilterProps) {
  const { t } = useTranslation('common');
  if (!field.to) return null;
  return (
    <ReferencePicker
      to={field.to}
      label={label}
      value={value ?? null}
      placeholder={t('list.searchToPick')}
      inPopover
      onChange={(next, name) => onChange(next ?? undefined, name)}
    />
  );
}

/** On a record's page: the referenced record's name, a link to its own page. */
function ReferenceValue({ row, name, field }: ValueProps) {
  const localized = useLocalizedPath();
  const localizedNames = useLocalizedNames(field.to);
  const target = field.to ? findEntity(field.to) : undefined;
  const related = row[referenceRelationName(name)] as Row | null | undefined;
  const stored = target ? related?.[target.display] : undefined;
  if (!target || stored === undefined || stored === null) return row[name] == null ? null : <>#{String(row[name])}</>;
  const id = related?.id ?? String(row[name]);
  const shown = localizedNames.name(id, String(stored));
  const path = recordPath(target.name, id, 'show');
  return path ? (
    <Anchor component={Link} to={localized(path)}>
      {shown}
    </Anchor>
  ) : (
    shown
  );
}

/**
 * A record of another resource: picked by search (or within another
 * field's record), shown by its display field (lists join it), a link on a
 * record's page.
 */
export const referenceWidget: FieldWidget = {
  Control: ReferenceControl,
  Filter: ReferenceFilter,
  Value: ReferenceValue,
};
