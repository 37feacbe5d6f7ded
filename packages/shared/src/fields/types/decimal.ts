import type { FieldTypeModule } from '../field-type-module.ts';
import { defineFieldType } from '../field-type-module.ts';
import { cellNumber, numberForm, numberOps, plainCell, rangeChoices } from '../field-type-parts.ts';

/**
 * What every number with decimals stored exactly (numeric) is: decimal, and
 * percent and amount, which differ only in how they read and show.
 */
export const exactNumber = {
  json: 'number',
  storage: { pgType: 'numeric' },
  customCast: 'numeric',
  ops: numberOps,
  filterChoices: rangeChoices,
  sortable: true,
  aggregatable: true,
  valueSchema: (field, { fieldNumber }) => fieldNumber(field, false),
  filterValueSchema: (_field, { numberText }) => numberText('Expected a number', (n) => n.finite()),
  importReads: 'number',
  importCell: cellNumber,
  exportCells: (value) => [plainCell(value)],
  ...numberForm,
} satisfies Partial<FieldTypeModule>;

/** A number with decimals, stored exactly (numeric). */
export const decimal = defineFieldType({
  ...exactNumber,
  label: 'Number',
  customizable: true,
  widget: { name: 'number', width: 140 },
});
