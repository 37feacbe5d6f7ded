import { defineFieldType } from '../field-type-module.ts';
import { cellText, plainCell, textForm } from '../field-type-parts.ts';

/** Paragraphs (a description, notes): searched by words in it, never sorted. */
export const longText = defineFieldType({
  label: 'Long text',
  json: 'string',
  storage: { pgType: 'text' },
  ops: ['contains', 'startsWith', 'isNull', 'notNull'],
  filterChoices: ['contains', 'startsWith', 'isNull', 'notNull'],
  sortable: false,
  text: true,
  customizable: true,
  valueSchema: (field, { textSchema }) => textSchema(field, 100_000),
  filterValueSchema: (_field, { anyText }) => anyText(),
  importCell: cellText,
  exportCells: (value) => [plainCell(value)],
  ...textForm,
  widget: { name: 'longText', width: 240 },
});
