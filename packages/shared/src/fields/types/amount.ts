import { defineFieldType } from '../field-type-module.ts';
import {
  bounded,
  cellNumber,
  finite,
  numberForm,
  numberOps,
  numberText,
  plainCell,
  rangeChoices,
} from '../field-type-parts.ts';

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
  valueSchema: (field) => bounded(finite, field),
  filterValueSchema: () => numberText('Expected a number', (n) => n.finite()),
  importCell: cellNumber,
  exportCells: (value) => [plainCell(value)],
  ...numberForm,
  widget: { name: 'amount', width: 170 },
});
