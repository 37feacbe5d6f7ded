import { defineFieldType } from '../field-type-module.ts';
import { cellNumber, numberForm, numberOps, plainCell, rangeChoices } from '../field-type-parts.ts';

/** A percentage as its number of percent (12.5 is 12.5 %). */
export const percent = defineFieldType({
  label: 'Percent',
  json: 'number',
  storage: { pgType: 'numeric' },
  customCast: 'numeric',
  ops: numberOps,
  filterChoices: rangeChoices,
  sortable: true,
  customizable: true,
  valueSchema: (field, { bounded, finite }) => bounded(finite, field),
  filterValueSchema: (_field, { numberText }) => numberText('Expected a number', (n) => n.finite()),
  importCell: cellNumber,
  exportCells: (value) => [plainCell(value)],
  ...numberForm,
  widget: { name: 'number', width: 110, display: 'percent', suffix: ' %' },
});
