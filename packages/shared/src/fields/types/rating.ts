import { defineFieldType } from '../field-type-module.ts';
import { cellNumber, numberForm, numberOps, plainCell, rangeChoices } from '../field-type-parts.ts';

/** The lowest and highest number of stars. */
export const RATING_MIN = 1;
export const RATING_MAX = 5;

/** A judgement of one to five stars (a deal's attractiveness, a contact's closeness). */
export const rating = defineFieldType({
  label: 'Rating',
  json: 'number',
  storage: { pgType: 'smallint' },
  customCast: 'smallint',
  ops: numberOps,
  filterChoices: rangeChoices,
  sortable: true,
  aggregatable: true,
  customizable: true,
  valueSchema: (_field, { z }) =>
    z
      .number({ error: `Expected a rating from ${RATING_MIN} to ${RATING_MAX}` })
      .int(`Expected a whole number of stars from ${RATING_MIN} to ${RATING_MAX}`)
      .min(RATING_MIN, `At least ${RATING_MIN} star`)
      .max(RATING_MAX, `At most ${RATING_MAX} stars`),
  filterValueSchema: (_field, { numberText }) => numberText('Expected a whole number', (n) => n.int()),
  // A spreadsheet may hold stars as typed (★★★) or the number.
  importCell: (cell) => (typeof cell === 'string' && /^★+$/.test(cell.trim()) ? cell.trim().length : cellNumber(cell)),
  exportCells: (value) => [plainCell(value)],
  ...numberForm,
  widget: { name: 'rating', width: 140, min: RATING_MIN, max: RATING_MAX },
});
