import { defineFieldType, type FormValue } from '../field-type-module.ts';
import { cellNumber, cellText, numberOps, rangeChoices } from '../field-type-parts.ts';

/** A money value: an amount and its ISO 4217 currency. */
export interface Money {
  amount: number;
  currency: string;
}

type MoneyForm = { amount: number | ''; currency: string };

/**
 * An amount and its currency. Stored as a numeric column and a currency
 * column beside it; filtered and sorted by its amount; two spreadsheet
 * columns, "<label>" and "<label> currency".
 */
export const money = defineFieldType({
  label: 'Money',
  json: 'object',
  storage: { pgType: 'numeric', currencyColumn: true },
  customCast: 'numeric',
  ops: numberOps,
  filterChoices: rangeChoices,
  sortable: true,
  aggregatable: true,
  customizable: true,
  valueSchema: (_field, { z, finite, currencyCode }) => z.strictObject({ amount: finite, currency: currencyCode }),
  filterValueSchema: (_field, { numberText }) => numberText('Expected a number', (n) => n.finite()),
  parts: { main: 'amount', extra: ['currency'] },
  importReads: 'number',
  // A currency sign or code beside the amount (`$1,200`, `1 200 €`) is dropped: the currency is its own part.
  importCell: (cell, part, format) =>
    part === 'currency' ? cellText(cell).toUpperCase() : cellNumber(cell, part, format, 'money'),
  exportCells: (value) => {
    const money = value as Money | null | undefined;
    return [money?.amount ?? null, money?.currency ?? null];
  },
  toForm: (value): FormValue => {
    const money = value as Partial<Money> | null | undefined;
    return { amount: money?.amount ?? '', currency: money?.currency ?? '' };
  },
  toApi: (value, empty) => {
    const money = value as MoneyForm | null | undefined;
    if (!money || money.amount === '' || money.amount === null) return empty;
    return { amount: Number(money.amount), currency: money.currency };
  },
  fromText: (text) => text,
  widget: { name: 'money', width: 170 },
});
