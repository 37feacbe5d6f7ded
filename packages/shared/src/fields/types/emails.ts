import { defineFieldType } from '../field-type-module.ts';
import { arrayOps, cellList, listCells, listForm } from '../field-type-parts.ts';

/** Several email addresses, kept in lower case. */
export const emails = defineFieldType({
  label: 'Emails',
  json: 'array',
  storage: { pgType: 'text', array: true },
  ops: arrayOps,
  filterChoices: ['contains', 'isNull', 'notNull'],
  sortable: false,
  customizable: false,
  valueSchema: (_field, { z }) =>
    z.array(z.email({ error: 'Expected an email address' }).max(320).toLowerCase()).max(50),
  filterValueSchema: (_field, { anyText }) => anyText(),
  importCell: cellList,
  exportCells: listCells,
  ...listForm,
  widget: { name: 'list', width: 200 },
});
