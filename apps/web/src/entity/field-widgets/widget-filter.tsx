import { fieldWidget } from './registry.ts';
import type { FilterProps } from './widget.ts';

/** A field's filter input, as its widget has it (filter-inputs.tsx loads this on demand). */
export function WidgetFilter(props: FilterProps) {
  const { Filter } = fieldWidget(props.field);
  return <Filter {...props} />;
}
