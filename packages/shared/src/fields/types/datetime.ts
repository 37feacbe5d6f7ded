import { defineFieldType } from '../field-type-module.ts';
import { cellText, numberOps, plainCell, rangeChoices } from '../field-type-parts.ts';

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant, ISO 8601 with its offset; forms show it in the user's own time zone. */
export const datetime = defineFieldType({
  label: 'Date and time',
  json: 'string',
  storage: { pgType: 'timestamptz' },
  customCast: 'timestamptz',
  ops: numberOps,
  filterChoices: rangeChoices,
  sortable: true,
  customizable: false,
  valueSchema: (_field, { isoDateTime }) => isoDateTime,
  filterValueSchema: (_field, { z, isoDate, isoDateTime }) =>
    z.union([isoDateTime, isoDate], { error: 'Expected a date or date and time in ISO 8601' }),
  importCell: cellText,
  exportCells: (value) => [plainCell(value)],
  toForm: (value) => {
    if (value === null || value === undefined) return '';
    const d = new Date(String(value));
    // datetime-local inputs show the user's own time zone.
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  },
  toApi: (value, empty) => (typeof value === 'string' && value !== '' ? new Date(value).toISOString() : empty),
  fromText: (text) => text,
  widget: { name: 'datetime', width: 170 },
});
