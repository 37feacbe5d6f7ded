import { Paper, Text } from '@mantine/core';
import type { MetricText } from './metric-text.ts';

/**
 * One figure as a tile: its name, its value, and under it why it is not
 * defined or how to read it (visible text, not a tooltip only: a keyboard or
 * a screen reader gets it too).
 */
export function MetricTile({ label, shown, testId }: { label: string; shown: MetricText; testId: string }) {
  return (
    <Paper withBorder p="sm" radius="md" data-testid={testId} data-defined={shown.defined}>
      <Text size="sm" c="dimmed" component="h3" fw="normal" m={0}>
        {label}
      </Text>
      <Text size="xl" fw={700} data-testid="metric-value">
        {shown.text}
      </Text>
      {shown.note ? (
        <Text size="xs" c="dimmed" data-testid="metric-note">
          {shown.note}
        </Text>
      ) : null}
    </Paper>
  );
}
