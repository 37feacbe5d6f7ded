import { TagsInput } from '@mantine/core';
import { inputProps, TextFilter } from './text-input.tsx';
import type { FieldWidget } from './widget.ts';

/** Free words or addresses: typed one by one, shown comma-separated. */
export const listWidget: FieldWidget = {
  Control: (props) => (
    <TagsInput
      {...inputProps(props)}
      clearable
      value={(props.value as string[]) ?? []}
      onChange={(next) => props.onChange(next)}
    />
  ),
  Filter: TextFilter,
};
