import { defineFieldType } from '../field-type-module.ts';
import { cellText, equalityOps, pickedForm, plainCell } from '../field-type-parts.ts';

/**
 * The id of a record of `field.to`. Import reads a record's display name
 * (looked up by the import), export writes it (joined by the export).
 */
export const reference = defineFieldType({
  label: 'Record',
  json: 'number',
  storage: { pgType: 'bigint' },
  ops: equalityOps,
  filterChoices: ['eq', 'isNull', 'notNull'],
  sortable: true,
  customizable: false,
  valueSchema: (_field, { z }) => z.number({ error: 'Expected the id of a record' }).int().positive(),
  filterValueSchema: (_field, { numberText }) => numberText('Expected a whole number', (n) => n.int()),
  importCell: cellText,
  exportCells: (value) => [plainCell(value)],
  ...pickedForm,
  toApi: (value, empty) => (value === null || value === '' || value === undefined ? empty : Number(value)),
  fromText: (text) => Number(text),
  widget: { name: 'reference', width: 200 },
});
