import { defineFieldType } from '../field-type-module.ts';
import { cellText, plainCell, textChoices, textForm, textOps } from '../field-type-parts.ts';

/** One line of text (a name, a city), at most 500 characters unless the field says. */
export const text = defineFieldType({
  label: 'Text',
  json: 'string',
  storage: { pgType: 'text' },
  ops: textOps,
  filterChoices: textChoices,
  sortable: true,
  text: true,
  customizable: true,
  valueSchema: (field, { textSchema }) => textSchema(field, 500),
  filterValueSchema: (_field, { anyText }) => anyText(),
  importCell: cellText,
  exportCells: (value) => [plainCell(value)],
  ...textForm,
  widget: { name: 'text', width: 200 },
});
