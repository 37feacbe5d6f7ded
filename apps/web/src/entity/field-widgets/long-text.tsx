import { Textarea } from '@mantine/core';
import { MarkdownText } from '../markdown-text.tsx';
import { inputProps, TextFilter } from './text-input.tsx';
import type { FieldWidget } from './widget.ts';

/**
 * Paragraphs: two lines in lists, whole on a record's page (in markdown, with
 * the notes' safe renderer), a growing text area in forms.
 */
export const longTextWidget: FieldWidget = {
  Control: (props) => (
    <Textarea
      {...inputProps(props)}
      autosize
      minRows={3}
      maxRows={12}
      value={String(props.value ?? '')}
      onChange={(e) => props.onChange(e.currentTarget.value)}
    />
  ),
  Filter: TextFilter,
  Value: ({ row, name }) =>
    row[name] === null || row[name] === undefined ? null : <MarkdownText text={String(row[name])} />,
  wide: true,
};
