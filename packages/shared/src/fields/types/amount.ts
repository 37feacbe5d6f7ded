import { defineFieldType } from '../field-type-module.ts';
import { cellNumber } from '../field-type-parts.ts';
import { exactNumber } from './decimal.ts';

/** An amount whose currency is a sibling field (`currencyField`), shown as money when that is set. */
export const amount = defineFieldType({
  ...exactNumber,
  // A currency sign or code beside the amount (`$1,200`) is dropped: the currency is its sibling field.
  importCell: (cell, part, format) => cellNumber(cell, part, format, 'money'),
  label: 'Amount',
  customizable: false,
  widget: { name: 'amount', width: 170 },
});
