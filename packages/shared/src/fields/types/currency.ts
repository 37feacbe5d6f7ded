import { defineFieldType } from '../field-type-module.ts';
import { cellText, equalityOps, pickedForm, plainCell } from '../field-type-parts.ts';

/** An ISO 4217 currency code (USD), one of the currencies the platform knows. */
export const currency = defineFieldType({
  label: 'Currency',
  json: 'string',
  storage: { pgType: 'varchar3', currencyCode: true },
  ops: equalityOps,
  filterChoices: ['eq', 'isNull', 'notNull'],
  sortable: true,
  customizable: false,
  valueSchema: (_field, { currencyCode }) => currencyCode,
  filterValueSchema: (_field, { currencyCode }) => currencyCode,
  importCell: (cell) => cellText(cell).toUpperCase(),
  exportCells: (value) => [plainCell(value)],
  ...pickedForm,
  toForm: (value) => (value === null || value === undefined ? '' : String(value)),
  widget: { name: 'currency', width: 110 },
});
