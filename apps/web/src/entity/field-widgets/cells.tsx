import {
  type FieldDescription,
  fieldTypeModule,
  type Money,
  type WidgetName,
} from '@data-platform/shared/fields/field-types';
import { Anchor, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { type CellContext, optionLabel } from './widget.ts';

/**
 * The list's cells, by widget: the part of each widget a list shows at once.
 * Kept apart from the widgets' controls and filter inputs (registry.ts),
 * which load with the first form or filter: the list's first screen fetches
 * no form library, number input or picker (issue #11, docs/decisions/0017).
 */

/** A non-empty value in a list's cell. A function, not a component: a grid draws thousands. */
export type Cell = (value: unknown, context: CellContext) => ReactNode;

const asText: Cell = (value) => String(value);

const isMoney = (value: unknown): value is Money =>
  typeof value === 'object' && value !== null && 'amount' in value && 'currency' in value;

/**
 * A rating as filled and empty stars, text rather than a component: a grid
 * draws thousands of them. Read out as "3 / 5".
 */
function stars(value: unknown, count: number) {
  const filled = Math.max(0, Math.min(count, Math.round(Number(value))));
  return (
    <span role="img" aria-label={`${filled} / ${count}`} style={{ color: 'var(--mantine-color-yellow-6)' }}>
      {'★'.repeat(filled)}
      <span style={{ color: 'var(--mantine-color-gray-4)' }}>{'★'.repeat(count - filled)}</span>
    </span>
  );
}

/** A number, in the language's format: a percentage, a multiple (`4.20x`), a size (`3 MB`), or as it is (a year). */
const numberCell: Cell = (value, { field, format }) => {
  const display = fieldTypeModule(field.type).widget.display ?? 'number';
  if (display === 'plain') return String(value);
  if (display === 'percent') return format.percent(Number(value));
  if (display === 'multiple') return format.multiple(Number(value));
  return field.unit === 'byte' ? format.fileSize(Number(value)) : format.number(Number(value));
};

const cells: Record<WidgetName, Cell> = {
  text: asText,
  // Two lines; the record's page shows it whole.
  longText: (value) => (
    <Text size="sm" lineClamp={2}>
      {String(value)}
    </Text>
  ),
  email: (value) => (
    <Anchor href={`mailto:${String(value)}`} size="sm">
      {String(value)}
    </Anchor>
  ),
  // A link that opens apart, shown without its scheme.
  url: (value) => (
    <Anchor href={String(value)} target="_blank" rel="noreferrer" size="sm">
      {String(value).replace(/^https?:\/\/(www\.)?/, '')}
    </Anchor>
  ),
  phone: asText,
  number: numberCell,
  // As money in the currency its sibling field holds, when that is set.
  amount: (value, { row, field, format }) => {
    const currency = field.currencyField ? row[field.currencyField] : undefined;
    return typeof currency === 'string' && typeof value === 'number'
      ? format.money({ amount: value, currency })
      : format.number(Number(value));
  },
  money: (value, { format }) => (isMoney(value) ? format.money(value) : ''),
  currency: asText,
  date: (value, { format }) => format.date(String(value)),
  datetime: (value, { format }) => format.dateTime(String(value)),
  boolean: (value, { t }) => (value ? t('values.yes') : t('values.no')),
  select: (value, { t }) => optionLabel(t, String(value)),
  multiSelect: (value, { t }) => (Array.isArray(value) ? value.map((v) => optionLabel(t, String(v))).join(', ') : ''),
  list: (value) => (Array.isArray(value) ? value.join(', ') : ''),
  // Lists join the referenced record's name (cell-value.tsx); the id shows only without it.
  reference: asText,
  rating: (value, { field }) => stars(value, fieldTypeModule(field.type).widget.max ?? 5),
};

/** The cell of a field's widget. */
export function widgetCell(field: FieldDescription): Cell {
  return cells[fieldTypeModule(field.type).widget.name];
}
