import { defineFieldType } from '../field-type-module.ts';
import { anyText, cellText, plainCell, textChoices, textForm, textOps, textSchema } from '../field-type-parts.ts';

/** A phone number, with its country calling code in front when known: `+33 1 23 45 67 89`. */
export const phone = defineFieldType({
  label: 'Phone',
  json: 'string',
  storage: { pgType: 'text' },
  ops: textOps,
  filterChoices: textChoices,
  sortable: true,
  text: true,
  customizable: true,
  valueSchema: (field) => textSchema(field, 40).regex(/^\+?[0-9 ()./-]{3,40}$/, 'Expected a phone number'),
  filterValueSchema: anyText,
  importCell: cellText,
  exportCells: (value) => [plainCell(value)],
  ...textForm,
  widget: { name: 'phone', width: 200 },
});
