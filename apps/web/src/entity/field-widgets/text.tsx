import { TextControl, TextFilter } from './text-input.tsx';
import type { FieldWidget } from './widget.ts';

/** Text on one line, shown as it is. */
export const textWidget: FieldWidget = {
  Control: TextControl,
  Filter: TextFilter,
};

/** An email address: a mailto link. */
export const emailWidget: FieldWidget = {
  Control: (props) => <TextControl {...props} type="email" />,
  Filter: TextFilter,
};

/** A web address: a link that opens apart, shown without its scheme. */
export const urlWidget: FieldWidget = {
  Control: (props) => <TextControl {...props} type="url" />,
  Filter: TextFilter,
};
