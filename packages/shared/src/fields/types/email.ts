import { defineFieldType } from '../field-type-module.ts';
import { cellText, plainCell, textChoices, textForm, textOps } from '../field-type-parts.ts';

/** One email address, kept in lower case. */
export const email = defineFieldType({
  label: 'Email',
  json: 'string',
  storage: { pgType: 'text' },
  ops: textOps,
  filterChoices: textChoices,
  sortable: true,
  text: true,
  customizable: true,
  valueSchema: (_field, { z }) => z.email({ error: 'Expected an email address' }).max(320).toLowerCase(),
  filterValueSchema: (_field, { anyText }) => anyText(),
  importCell: cellText,
  exportCells: (value) => [plainCell(value)],
  ...textForm,
  widget: { name: 'email', width: 240 },
});
