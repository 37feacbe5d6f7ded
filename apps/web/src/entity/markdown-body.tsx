import { Typography } from '@mantine/core';
import Markdown from 'react-markdown';
import classes from './markdown-text.module.css';

/**
 * Markdown as text only: react-markdown builds React elements and drops raw
 * HTML (no `rehype-raw`), and its URL filter drops `javascript:` links.
 */
export function MarkdownBody({ text, size = 'sm' }: { text: string; size?: 'sm' | 'md' }) {
  return (
    <Typography fz={size} className={classes.body}>
      <Markdown skipHtml>{text}</Markdown>
    </Typography>
  );
}
