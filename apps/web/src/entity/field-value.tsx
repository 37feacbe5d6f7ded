import type { FieldDescription } from '@data-platform/shared/fields/field-types';
import type { Row } from '../store/resource-slices.ts';
import { CellValue } from './cell-value.tsx';
import { fieldWidget } from './field-widgets/registry.ts';

/**
 * A field of a record on its show page: as in lists, unless the widget
 * shows it otherwise there (long text whole, a referenced record as a link
 * to its own page).
 */
export function FieldValue({ row, name, field }: { row: Row; name: string; field: FieldDescription }) {
  const { Value } = fieldWidget(field);
  return Value ? <Value row={row} name={name} field={field} /> : <CellValue row={row} column={{ name, field }} />;
}
