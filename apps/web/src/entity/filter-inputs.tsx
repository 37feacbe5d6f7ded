import type { FieldDescription } from '@data-platform/shared/fields/field-types';
import { fieldWidget } from './field-widgets/registry.ts';

export { ReferenceName } from './field-widgets/reference.tsx';

/**
 * One value of a field, typed as text the way the list grammar writes it:
 * numbers as digits, dates as YYYY-MM-DD, yes/no as true/false, picklist
 * values as themselves (several, comma-separated, with `several`).
 */
export function ValueInput({
  field,
  label,
  value,
  onChange,
  several = false,
}: {
  field: FieldDescription;
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined, name?: string) => void;
  several?: boolean;
}) {
  const { Filter } = fieldWidget(field);
  return <Filter field={field} label={label} value={value} onChange={onChange} several={several} />;
}
