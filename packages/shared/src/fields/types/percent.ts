import { defineFieldType } from '../field-type-module.ts';
import { exactNumber } from './decimal.ts';

/** A percentage as its number of percent (12.5 is 12.5 %). */
export const percent = defineFieldType({
  ...exactNumber,
  label: 'Percent',
  customizable: true,
  widget: { name: 'number', width: 110, display: 'percent', suffix: ' %' },
});
