import type { FieldDescription, Money } from '@data-platform/shared/fields/field-types';
import { Anchor, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { type ReactNode, useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { type Formatters, useFormat } from '../i18n/format.ts';
import type { Row } from '../store/resource-slices.ts';
import type { Column } from './columns.ts';

const isMoney = (value: unknown): value is Money =>
  typeof value === 'object' && value !== null && 'amount' in value && 'currency' in value;

/** The translation function of cells: common texts, and the options of select fields. */
export type CellT = TFunction<['common', 'options']>;

/**
 * One value of a row, shown as its field type says, in the interface's
 * language. A function, not a component, so that a grid asks for the language
 * once rather than once per cell it shows.
 */
export function cellContent(row: Row, column: Column, t: CellT, format: Formatters): ReactNode {
  const { name, field, reference } = column;
  if (reference) {
    const related = row[reference.relation] as Record<string, unknown> | null | undefined;
    const shown = related?.[reference.display];
    return shown === undefined || shown === null ? '' : String(shown);
  }
  const value = row[name];
  if (value === null || value === undefined || value === '') return null;
  const option = (text: string) => t(text, { ns: 'options', keySeparator: false, nsSeparator: false });
  switch (field.type) {
    case 'money':
      return <>{isMoney(value) ? format.money(value) : ''}</>;
    case 'amount': {
      const currency = field.currencyField ? row[field.currencyField] : undefined;
      return (
        <>
          {typeof currency === 'string' && typeof value === 'number'
            ? format.money({ amount: value, currency })
            : format.number(Number(value))}
        </>
      );
    }
    case 'integer':
    case 'decimal':
      return <>{format.number(Number(value))}</>;
    case 'percent':
      return <>{format.percent(Number(value))}</>;
    case 'date':
      return <>{format.date(String(value))}</>;
    case 'datetime':
      return <>{format.dateTime(String(value))}</>;
    case 'boolean':
      return <>{value ? t('values.yes') : t('values.no')}</>;
    case 'select':
      return <>{option(String(value))}</>;
    case 'multiSelect':
      return <>{Array.isArray(value) ? value.map((v) => option(String(v))).join(', ') : ''}</>;
    case 'tags':
    case 'emails':
      return <>{Array.isArray(value) ? value.join(', ') : ''}</>;
    case 'url':
      return (
        <Anchor href={String(value)} target="_blank" rel="noreferrer" size="sm">
          {String(value).replace(/^https?:\/\/(www\.)?/, '')}
        </Anchor>
      );
    case 'email':
      return (
        <Anchor href={`mailto:${String(value)}`} size="sm">
          {String(value)}
        </Anchor>
      );
    case 'longText':
      return (
        <Text size="sm" lineClamp={2}>
          {String(value)}
        </Text>
      );
    default:
      return <>{String(value)}</>;
  }
}

/** One value of a row, shown as its field type says, in the interface's language. */
export function CellValue({ row, column }: { row: Row; column: Column }) {
  const { t } = useTranslation(['common', 'options']);
  return cellContent(row, column, t, useFormat());
}

/** How a field's label reads: `fields.<entity>.<field>`. */
export function useFieldLabel(resource: string): (field: string, description?: FieldDescription) => string {
  const { t } = useTranslation('entities');
  // The same function while the language stays: the grid's columns, and with them every row, depend on it.
  return useCallback(
    (field, description) => t(`fields.${resource}.${field}`, { defaultValue: description?.label ?? field }),
    [t, resource],
  );
}
