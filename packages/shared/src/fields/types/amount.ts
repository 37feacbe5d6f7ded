import { defineFieldType } from '../field-type-module.ts';
import { cellNumber, numberForm, numberOps, plainCell, rangeChoices } from '../field-type-parts.ts';

/** An amount whose currency is a sibling field (`currencyField`), shown as money when that is set. */
export const amount = defineFieldType({
  label: 'Amount',
  json: 'number',
  storage: { pgType: 'numeric' },
  customCast: 'numeric',
  ops: numberOps,
  filterChoices: rangeChoices,
  sortable: true,
  customizable: false,
  valueSchema: (field, { bounded, finite }) => bounded(finite, field),
  filterValueSchema: (_field, { numberText }) => numberText('Expected a number', (n) => n.finite()),
  importCell: cellNumber,
  exportCells: (value) => [plainCell(value)],
  ...numberForm,
  widget: { name: 'amount', width: 170 },
});
