import { defineFieldType } from '../field-type-module.ts';
import { cellNumber, numberForm, numberOps, plainCell, rangeChoices } from '../field-type-parts.ts';

/** A whole number within the field's bounds. */
export const integer = defineFieldType({
  label: 'Whole number',
  json: 'number',
  storage: { pgType: 'integer' },
  customCast: 'integer',
  ops: numberOps,
  filterChoices: rangeChoices,
  sortable: true,
  aggregatable: true,
  customizable: true,
  valueSchema: (field, { fieldNumber }) => fieldNumber(field, true),
  filterValueSchema: (_field, { numberText }) => numberText('Expected a whole number', (n) => n.int()),
  importReads: 'number',
  importCell: cellNumber,
  exportCells: (value) => [plainCell(value)],
  ...numberForm,
  widget: { name: 'number', width: 140, decimals: false },
});
