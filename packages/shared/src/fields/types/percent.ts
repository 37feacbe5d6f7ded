import { defineFieldType } from '../field-type-module.ts';
import { cellNumber } from '../field-type-parts.ts';
import { exactNumber } from './decimal.ts';

/** A percentage as its number of percent (12.5 is 12.5 %). */
export const percent = defineFieldType({
  ...exactNumber,
  // `12.5%` as a spreadsheet shows a percentage is 12.5.
  importCell: (cell, part, format) => cellNumber(cell, part, format, 'percent'),
  label: 'Percent',
  customizable: true,
  widget: { name: 'number', width: 110, display: 'percent', suffix: ' %' },
});
