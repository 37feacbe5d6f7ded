import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { AXIS_HEIGHT, BAR_ROW } from './chart-size.ts';

/** One bar: what it counts (already in the reader's language) and how many. */
export interface ChartBar {
  label: string;
  count: number;
}

// Mantine's CSS variables: the bars, text and lines follow the color scheme (light or dark) with no code of ours.
const TEXT = 'var(--mantine-color-text)';
const LINE = 'var(--mantine-color-default-border)';

/**
 * Counts as horizontal bars, in the order given (a pipeline's stages from the
 * first to the last: a funnel read top down). Loaded only by screens that show
 * a chart (see breakdown-tile.tsx): recharts stays out of every other screen.
 * The chart is a picture of the table beside it, which is what screen readers
 * and keyboards use: it is hidden from them by its caller, and takes no focus
 * (no `accessibilityLayer`: a focusable chart inside hidden content is a trap).
 */
export default function BreakdownChart({
  bars,
  countLabel,
  numberFormat,
}: {
  bars: ChartBar[];
  /** What the bars count ("Deals"), named in the tooltip. */
  countLabel: string;
  numberFormat: (n: number) => string;
}) {
  return (
    <ResponsiveContainer width="100%" height={bars.length * BAR_ROW + AXIS_HEIGHT}>
      <BarChart
        data={bars}
        layout="vertical"
        accessibilityLayer={false}
        margin={{ top: 0, right: 16, bottom: 0, left: 0 }}
        barCategoryGap={6}
      >
        <CartesianGrid horizontal={false} stroke={LINE} />
        <XAxis
          type="number"
          allowDecimals={false}
          tickFormatter={numberFormat}
          tick={{ fill: TEXT, fontSize: 12 }}
          stroke={LINE}
          height={AXIS_HEIGHT}
        />
        <YAxis
          type="category"
          dataKey="label"
          width={132}
          interval={0}
          tick={{ fill: TEXT, fontSize: 12 }}
          stroke={LINE}
        />
        <Tooltip
          cursor={{ fill: 'var(--mantine-color-default-hover)' }}
          formatter={(value) => numberFormat(Number(value))}
          contentStyle={{
            background: 'var(--mantine-color-body)',
            border: `1px solid ${LINE}`,
            color: TEXT,
            borderRadius: 'var(--mantine-radius-sm)',
          }}
          labelStyle={{ color: TEXT }}
          itemStyle={{ color: TEXT }}
        />
        <Bar dataKey="count" name={countLabel} fill="var(--mantine-primary-color-filled)" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
