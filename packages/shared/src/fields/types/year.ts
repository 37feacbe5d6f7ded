import { FIRST_YEAR, LAST_YEAR } from '../field-messages.ts';
import { defineFieldType } from '../field-type-module.ts';
import { cellNumber, numberForm, numberOps, plainCell, rangeChoices } from '../field-type-parts.ts';

/** A calendar year (a founding year, a fund's vintage). */
export const year = defineFieldType({
  label: 'Year',
  json: 'number',
  storage: { pgType: 'integer' },
  customCast: 'integer',
  ops: numberOps,
  filterChoices: rangeChoices,
  sortable: true,
  customizable: false,
  valueSchema: (field, { fieldNumber }) => fieldNumber(field, true),
  filterValueSchema: (_field, { numberText }) => numberText('Expected a whole number', (n) => n.int()),
  importCell: cellNumber,
  exportCells: (value) => [plainCell(value)],
  ...numberForm,
  widget: {
    name: 'number',
    width: 110,
    decimals: false,
    grouping: false,
    display: 'plain',
    min: FIRST_YEAR,
    max: LAST_YEAR,
  },
});
