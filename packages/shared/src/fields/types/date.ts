import { defineFieldType } from '../field-type-module.ts';
import { cellDate, numberOps, plainCell, rangeChoices, textForm } from '../field-type-parts.ts';

/** A calendar day, YYYY-MM-DD. */
export const date = defineFieldType({
  label: 'Date',
  json: 'string',
  storage: { pgType: 'date' },
  customCast: 'date',
  ops: numberOps,
  filterChoices: rangeChoices,
  sortable: true,
  customizable: true,
  valueSchema: (_field, { isoDate }) => isoDate,
  filterValueSchema: (_field, { isoDate }) => isoDate,
  importReads: 'date',
  importCell: cellDate,
  exportCells: (value) => [plainCell(value)],
  ...textForm,
  toForm: (value) => (value === null || value === undefined ? '' : String(value).slice(0, 10)),
  widget: { name: 'date', width: 140 },
});
