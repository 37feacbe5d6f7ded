import { fieldTypeModule } from '@data-platform/shared/fields/field-types';
import { Input, Rating } from '@mantine/core';
import { NumberFilter } from './number.tsx';
import type { ControlProps, FieldWidget } from './widget.ts';

const starsOf = (field: ControlProps['field']) => fieldTypeModule(field.type).widget.max ?? 5;

/** Stars picked with the pointer or the arrow keys; clicking the picked star again clears an optional rating. */
function RatingControl(props: ControlProps) {
  const count = starsOf(props.field);
  const value = typeof props.value === 'number' ? props.value : 0;
  return (
    <Input.Wrapper
      label={props.label}
      description={props.field.help}
      required={props.field.required}
      error={props.error}
    >
      <Rating
        name={props.name}
        count={count}
        value={value}
        allowClear={!props.field.required}
        getSymbolLabel={(stars) => `${stars} / ${count}`}
        onChange={(stars) => props.onChange(stars === 0 ? '' : stars)}
        onBlur={props.onBlur}
      />
    </Input.Wrapper>
  );
}

/** One to five stars: stars in lists and on record pages, a star picker in forms, numbers in filters. */
export const ratingWidget: FieldWidget = {
  Control: RatingControl,
  Filter: NumberFilter,
};
