import { defineFieldType } from '../field-type-module.ts';
import { exactNumber } from './decimal.ts';

/** An amount whose currency is a sibling field (`currencyField`), shown as money when that is set. */
export const amount = defineFieldType({
  ...exactNumber,
  label: 'Amount',
  customizable: false,
  widget: { name: 'amount', width: 170 },
});
