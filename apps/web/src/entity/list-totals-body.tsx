import { type FieldDescription, fieldTypeModule } from '@data-platform/shared/fields/field-types';
import { aggregatableFields, groupableFields } from '@data-platform/shared/query/aggregate-fields';
import type { AggregatesResponse, FieldTotals } from '@data-platform/shared/query/aggregates';
import { Alert, Button, Group, Loader, NativeSelect, Text } from '@mantine/core';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldLabel } from './cell-value.tsx';
import type { Column } from './columns.ts';
import { useEntity } from './custom-fields.ts';
import { optionLabel } from './field-widgets/widget.ts';
import classes from './list-totals.module.css';
import type { ListTotalsProps } from './list-totals.tsx';
import { totalsParams, useTotalsQuery } from './totals-api.ts';

const STATS = ['sum', 'avg', 'min', 'max'] as const;
type Stat = (typeof STATS)[number];

/** Exact decimal strings as the language writes them (Intl reads them as decimals: no float rounding). */
function useDecimals() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(() => {
    const plain = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
    const two = new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const currencies = new Map<string, Intl.NumberFormat>();
    const money = (currency: string) => {
      let format = currencies.get(currency);
      if (!format) {
        format = new Intl.NumberFormat(language, { style: 'currency', currency });
        currencies.set(currency, format);
      }
      return format;
    };
    const decimal = (text: string) => text as `${number}`;
    return {
      /** A number of rows. */
      count: (value: number) => plain.format(value),
      /** A value of the field as its type reads (`12.5 %`, `4.20x`, `1,234.5`). */
      value: (text: string, field: FieldDescription) => {
        const display = fieldTypeModule(field.type).widget.display ?? 'number';
        if (display === 'percent') return `${plain.format(decimal(text))} %`;
        if (display === 'multiple') return `${two.format(decimal(text))}x`;
        return plain.format(decimal(text));
      },
      money: (text: string, currency: string | null) =>
        currency ? money(currency).format(decimal(text)) : plain.format(decimal(text)),
    };
  }, [language]);
}

type Decimals = ReturnType<typeof useDecimals>;

/** One statistic of one field: a line per currency for money, a dash where no row has a value. */
function statCell(totals: FieldTotals | undefined, stat: Stat, field: FieldDescription, format: Decimals): ReactNode {
  if (!totals) return '—';
  if (totals.kind === 'number') {
    const text = totals[stat];
    return text === null ? '—' : format.value(text, field);
  }
  if (totals.currencies.length === 0) return '—';
  return totals.currencies.map((line) => (
    <span key={line.currency ?? ''} className={classes.line}>
      {line[stat] === null ? '—' : format.money(line[stat] as string, line.currency)}
    </span>
  ));
}

/** The shown totals of a list (see ListTotals): the group-by picker, then the totals and subtotals. */
export function ShownTotals({
  resource,
  query,
  columns,
  toggle,
  bodyId,
}: ListTotalsProps & { toggle: ReactNode; bodyId: string }) {
  const { t } = useTranslation('totals');
  const { t: tOptions } = useTranslation(['common', 'options']);
  const { entity } = useEntity(resource);
  const label = useFieldLabel(resource);
  const format = useDecimals();
  const [groupBy, setGroupBy] = useState('');

  const totalled = useMemo(() => {
    const adding = new Set(aggregatableFields(entity));
    return columns.filter((column) => adding.has(column.name));
  }, [entity, columns]);
  const groupable = useMemo(() => groupableFields(entity), [entity]);
  const grouping = groupable.includes(groupBy) ? groupBy : '';
  const params = useMemo((): [string, string][] => {
    const own: [string, string][] = [['fields', totalled.map((column) => column.name).join(',')]];
    if (grouping) own.push(['groupBy', grouping]);
    return [...totalsParams(query), ...own];
  }, [query, totalled, grouping]);
  const { data, error, isFetching, refetch } = useTotalsQuery(resource, params);

  const groupField = grouping ? entity.fields[grouping] : undefined;
  return (
    <>
      <Group gap="sm" align="end">
        {toggle}
        {groupable.length > 0 ? (
          <NativeSelect
            size="xs"
            label={t('groupBy')}
            value={grouping}
            onChange={(event) => setGroupBy(event.currentTarget.value)}
            data={[
              { value: '', label: t('noGroup') },
              ...groupable.map((name) => ({ value: name, label: label(name, entity.fields[name]) })),
            ]}
          />
        ) : null}
        {isFetching ? <Loader size="xs" role="status" aria-label={t('loading')} /> : null}
      </Group>
      <div id={bodyId} className={classes.body}>
        {error && !data ? (
          <Alert color="red" role="alert">
            <Group justify="space-between">
              <Text size="sm">{t('failed')}</Text>
              <Button size="xs" variant="light" onClick={() => refetch()}>
                {t('retry')}
              </Button>
            </Group>
          </Alert>
        ) : null}
        {data ? (
          <>
            <TotalsTable data={data} columns={totalled} label={label} format={format} />
            {groupField && data.groupBy === grouping && data.groups ? (
              <GroupsTable
                data={data}
                columns={totalled}
                groupLabel={label(grouping, groupField)}
                valueLabel={(value) => (value === null ? t('noValue') : optionLabel(tOptions, value))}
                label={label}
                format={format}
              />
            ) : null}
          </>
        ) : null}
      </div>
    </>
  );
}

interface TableProps {
  data: AggregatesResponse;
  columns: readonly Column[];
  label: (field: string, description?: FieldDescription) => string;
  format: Decimals;
}

/** Count in the caption; a column per totalled field, a row per statistic. */
function TotalsTable({ data, columns, label, format }: TableProps) {
  const { t } = useTranslation('totals');
  const caption = t('caption', { count: data.count, formatted: format.count(data.count) });
  if (columns.length === 0) {
    return (
      <Text size="sm">
        {caption} · {t('nothingAdds')}
      </Text>
    );
  }
  return (
    <table className={classes.table}>
      <caption className={classes.caption}>{caption}</caption>
      <thead>
        <tr>
          <td />
          {columns.map((column) => (
            <th key={column.name} scope="col" className={classes.number}>
              {label(column.name, column.field)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {STATS.map((stat) => (
          <tr key={stat}>
            <th scope="row">{t(stat)}</th>
            {columns.map((column) => (
              <td key={column.name} className={classes.number}>
                {statCell(data.fields[column.name], stat, column.field, format)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A row per option of the group-by picklist (in its order, no value last): its count and each field's sum. */
function GroupsTable({
  data,
  columns,
  groupLabel,
  valueLabel,
  label,
  format,
}: TableProps & { groupLabel: string; valueLabel: (value: string | null) => string }) {
  const { t } = useTranslation('totals');
  return (
    <table className={classes.table}>
      <caption className={classes.caption}>{t('subtotals', { field: groupLabel })}</caption>
      <thead>
        <tr>
          <th scope="col">{groupLabel}</th>
          <th scope="col" className={classes.number}>
            {t('count')}
          </th>
          {columns.map((column) => (
            <th key={column.name} scope="col" className={classes.number}>
              {t('sumOf', { field: label(column.name, column.field) })}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {(data.groups ?? []).map((group) => (
          <tr key={group.value ?? ''}>
            <th scope="row">{valueLabel(group.value)}</th>
            <td className={classes.number}>{format.count(group.count)}</td>
            {columns.map((column) => (
              <td key={column.name} className={classes.number}>
                {statCell(group.fields[column.name], 'sum', column.field, format)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
