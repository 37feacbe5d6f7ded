import { Anchor } from '@mantine/core';
import { TextControl, TextFilter } from './text-input.tsx';
import type { FieldWidget } from './widget.ts';

/** Text on one line, shown as it is. */
export const textWidget: FieldWidget = {
  Control: TextControl,
  cell: (value) => String(value),
  Filter: TextFilter,
};

/** An email address: a mailto link. */
export const emailWidget: FieldWidget = {
  Control: (props) => <TextControl {...props} type="email" />,
  cell: (value) => (
    <Anchor href={`mailto:${String(value)}`} size="sm">
      {String(value)}
    </Anchor>
  ),
  Filter: TextFilter,
};

/** A web address: a link that opens apart, shown without its scheme. */
export const urlWidget: FieldWidget = {
  Control: (props) => <TextControl {...props} type="url" />,
  cell: (value) => (
    <Anchor href={String(value)} target="_blank" rel="noreferrer" size="sm">
      {String(value).replace(/^https?:\/\/(www\.)?/, '')}
    </Anchor>
  ),
  Filter: TextFilter,
};
