import { defineFieldType } from '../field-type-module.ts';
import { cellText, plainCell, textChoices, textForm, textOps } from '../field-type-parts.ts';

/** A web address, http or https only. */
export const url = defineFieldType({
  label: 'Web address',
  json: 'string',
  storage: { pgType: 'text' },
  ops: textOps,
  filterChoices: textChoices,
  sortable: true,
  text: true,
  customizable: true,
  valueSchema: (_field, { z, withoutNul, nulMessage }) =>
    z
      .url({ protocol: /^https?$/, error: 'Expected a web address starting with http:// or https://' })
      .max(2000, 'At most 2000 characters')
      .regex(withoutNul, nulMessage),
  filterValueSchema: (_field, { anyText }) => anyText(),
  importCell: cellText,
  exportCells: (value) => [plainCell(value)],
  ...textForm,
  widget: { name: 'url', width: 240 },
});
