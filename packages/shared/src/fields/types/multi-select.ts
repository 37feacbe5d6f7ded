import { defineFieldType } from '../field-type-module.ts';
import { arrayOps, cellList, listCells, listForm } from '../field-type-parts.ts';

/** Some of the field's options. */
export const multiSelect = defineFieldType({
  label: 'Multiple choice',
  json: 'array',
  storage: { pgType: 'text', array: true },
  ops: arrayOps,
  filterChoices: ['in', 'contains', 'isNull', 'notNull'],
  sortable: false,
  options: true,
  customizable: true,
  valueSchema: (field, { z }) => z.array(z.enum(field.options as [string, ...string[]])).max(100),
  filterValueSchema: (field, { optionsSchema }) => optionsSchema(field),
  importCell: cellList,
  exportCells: listCells,
  ...listForm,
  widget: { name: 'multiSelect', width: 200 },
});
