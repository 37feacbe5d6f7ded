import { defineFieldType } from '../field-type-module.ts';
import { cellText, equalityOps, pickedForm, plainCell } from '../field-type-parts.ts';

/** One of the field's options. */
export const select = defineFieldType({
  label: 'Picklist',
  json: 'string',
  storage: { pgType: 'text' },
  ops: equalityOps,
  filterChoices: ['in', 'isNull', 'notNull'],
  sortable: true,
  options: true,
  customizable: true,
  valueSchema: (field, { optionsSchema }) => optionsSchema(field),
  filterValueSchema: (field, { optionsSchema }) => optionsSchema(field),
  importCell: cellText,
  exportCells: (value) => [plainCell(value)],
  ...pickedForm,
  widget: { name: 'select', width: 170 },
});
