import { z } from 'zod';
import { defineFieldType } from '../field-type-module.ts';
import { anyText, cellText, plainCell, textChoices, textForm, textOps } from '../field-type-parts.ts';

/** One email address, kept in lower case. */
export const email = defineFieldType({
  label: 'Email',
  json: 'string',
  storage: { pgType: 'text' },
  ops: textOps,
  filterChoices: textChoices,
  sortable: true,
  text: true,
  customizable: true,
  valueSchema: () => z.email({ error: 'Expected an email address' }).max(320).toLowerCase(),
  filterValueSchema: anyText,
  importCell: cellText,
  exportCells: (value) => [plainCell(value)],
  ...textForm,
  widget: { name: 'email', width: 240 },
});
