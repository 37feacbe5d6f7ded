import { defineFieldType } from '../field-type-module.ts';
import { cellText, plainCell } from '../field-type-parts.ts';

const truthy = new Set(['true', 'yes', 'y', '1', 'oui']);
const falsy = new Set(['false', 'no', 'n', '0', 'non']);

/** Yes or no. */
export const boolean = defineFieldType({
  label: 'Yes or no',
  json: 'boolean',
  storage: { pgType: 'boolean' },
  customCast: 'boolean',
  ops: ['eq', 'ne', 'isNull', 'notNull'],
  filterChoices: ['eq', 'isNull'],
  sortable: true,
  customizable: true,
  valueSchema: (_field, { z }) => z.boolean({ error: 'Expected true or false' }),
  filterValueSchema: (_field, { z }) =>
    z.enum(['true', 'false'], { error: 'Expected true or false' }).transform((v) => v === 'true'),
  importCell: (cell) => {
    if (typeof cell === 'boolean') return cell;
    const text = cellText(cell);
    if (truthy.has(text.toLowerCase())) return true;
    if (falsy.has(text.toLowerCase())) return false;
    return text;
  },
  exportCells: (value) => [plainCell(value)],
  toForm: (value) => value === true,
  toApi: (value) => value === true,
  fromText: (text) => text === 'true',
  widget: { name: 'boolean', width: 110 },
});
