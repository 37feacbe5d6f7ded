import { defineFieldType } from '../field-type-module.ts';
import { arrayOps, cellList, listCells, listForm } from '../field-type-parts.ts';

/** Free words (keywords, sectors). */
export const tags = defineFieldType({
  label: 'Tags',
  json: 'array',
  storage: { pgType: 'text', array: true },
  ops: arrayOps,
  filterChoices: ['contains', 'isNull', 'notNull'],
  sortable: false,
  customizable: true,
  storedOptions: true,
  valueSchema: (_field, { z, withoutNul, nulMessage }) =>
    z.array(z.string().trim().min(1).max(100).regex(withoutNul, nulMessage)).max(100),
  filterValueSchema: (_field, { anyText }) => anyText(),
  importCell: cellList,
  exportCells: listCells,
  ...listForm,
  widget: { name: 'list', width: 200 },
});
