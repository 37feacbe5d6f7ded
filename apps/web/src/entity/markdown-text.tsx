import { Text } from '@mantine/core';
import { lazy, Suspense } from 'react';

const MarkdownBody = lazy(async () => ({ default: (await import('./markdown-body.tsx')).MarkdownBody }));

/**
 * Text people write in markdown (notes, descriptions), rendered safely (see
 * markdown-body.tsx). The renderer loads with the first text shown, so lists
 * and first screens do not carry it; until then the text shows as written.
 */
export function MarkdownText({ text, size = 'sm' }: { text: string; size?: 'sm' | 'md' }) {
  return (
    <Suspense
      fallback={
        <Text size={size} style={{ whiteSpace: 'pre-wrap' }}>
          {text}
        </Text>
      }
    >
      <MarkdownBody text={text} size={size} />
    </Suspense>
  );
}
