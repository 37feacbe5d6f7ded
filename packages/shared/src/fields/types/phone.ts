import { defineFieldType } from '../field-type-module.ts';
import { cellText, plainCell, textChoices, textForm, textOps } from '../field-type-parts.ts';

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
  valueSchema: (field, { textSchema }) =>
    textSchema(field, 40).regex(/^\+?[0-9 ()./-]{3,40}$/, 'Expected a phone number'),
  filterValueSchema: (_field, { anyText }) => anyText(),
  importCell: cellText,
  exportCells: (value) => [plainCell(value)],
  ...textForm,
  widget: { name: 'phone', width: 200 },
});
