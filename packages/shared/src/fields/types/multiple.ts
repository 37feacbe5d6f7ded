import { defineFieldType } from '../field-type-module.ts';
import { exactNumber } from './decimal.ts';

/** A multiple of what was put in (DPI, TVPI, MOIC): `4.20x`, always two decimals. */
export const multiple = defineFieldType({
  ...exactNumber,
  label: 'Multiple',
  customizable: false,
  widget: { name: 'number', width: 110, display: 'multiple', suffix: 'x' },
});
