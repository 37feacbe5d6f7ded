import {
  Area,
  AreaChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { CHART_HEIGHT } from './chart-size.ts';

/**
 * The fund analytics charts (recharts, docs/decisions/0022-charts.md): loaded
 * only by the screens that show one (through React.lazy), coloured by
 * Mantine's CSS variables so they follow the colour scheme. Each is a picture
 * of a table its caller shows beside it: it is hidden from screen readers by
 * its caller and takes no focus.
 */

const TEXT = 'var(--mantine-color-text)';
const LINE = 'var(--mantine-color-default-border)';
/** Series colours readable on the light and the dark body (Mantine's 6 shades, its `filled` variants). */
const SERIES_COLOURS = [
  'var(--mantine-color-blue-filled)',
  'var(--mantine-color-teal-filled)',
  'var(--mantine-color-orange-filled)',
  'var(--mantine-color-grape-filled)',
];

const tick = { fill: TEXT, fontSize: 12 };
const tooltipProps = {
  contentStyle: {
    background: 'var(--mantine-color-body)',
    border: `1px solid ${LINE}`,
    color: TEXT,
    borderRadius: 'var(--mantine-radius-sm)',
  },
  labelStyle: { color: TEXT },
  itemStyle: { color: TEXT },
};
const legendStyle = { color: TEXT, fontSize: 12 };

/** One line of a chart: the key of the point's value, its name (translated), and how its values read. */
export interface ChartSeries {
  key: string;
  name: string;
  /** On the right axis (a rate beside multiples). */
  right?: boolean;
}

export interface ChartProps {
  points: Record<string, number | string | null>[];
  series: ChartSeries[];
  /** The x axis' labels (a date as the reader writes it). */
  dateFormat: (date: string) => string;
  leftFormat: (value: number) => string;
  rightFormat?: (value: number) => string;
}

/** Lines over dates (multiples on the left axis, a rate on the right one; or money). */
export function LinesChart({ points, series, dateFormat, leftFormat, rightFormat }: ChartProps) {
  const hasRight = series.some((line) => line.right);
  const formats = (line: ChartSeries) => (line.right && rightFormat ? rightFormat : leftFormat);
  return (
    <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
      <LineChart data={points} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={LINE} vertical={false} />
        <XAxis dataKey="date" tickFormatter={dateFormat} tick={tick} stroke={LINE} minTickGap={24} />
        <YAxis yAxisId="left" tickFormatter={leftFormat} tick={tick} stroke={LINE} width={72} />
        {hasRight ? (
          <YAxis yAxisId="right" orientation="right" tickFormatter={rightFormat} tick={tick} stroke={LINE} width={64} />
        ) : null}
        <Tooltip
          {...tooltipProps}
          labelFormatter={(label) => dateFormat(String(label))}
          formatter={(value, _name, item) => {
            const line = series.find((candidate) => candidate.key === item.dataKey);
            return value === null || value === undefined ? '—' : (line ? formats(line) : leftFormat)(Number(value));
          }}
        />
        <Legend wrapperStyle={legendStyle} />
        {series.map((line, index) => (
          <Line
            key={line.key}
            yAxisId={line.right ? 'right' : 'left'}
            type="monotone"
            dataKey={line.key}
            name={line.name}
            stroke={SERIES_COLOURS[index % SERIES_COLOURS.length]}
            strokeWidth={2}
            strokeDasharray={line.right ? '5 3' : undefined}
            dot={points.length < 24}
            connectNulls={false}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}

/** The J-curve: cumulative net cash flow (distributions minus contributions) over dates, around zero. */
export function JCurveChart({
  points,
  name,
  dateFormat,
  moneyFormat,
}: {
  points: { date: string; netCashFlow: number }[];
  name: string;
  dateFormat: (date: string) => string;
  moneyFormat: (value: number) => string;
}) {
  return (
    <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
      <AreaChart data={points} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={LINE} vertical={false} />
        <XAxis dataKey="date" tickFormatter={dateFormat} tick={tick} stroke={LINE} minTickGap={24} />
        {/* Zero always shows: the curve is read against it (below while paid in, above once paid back). */}
        <YAxis
          tickFormatter={moneyFormat}
          tick={tick}
          stroke={LINE}
          width={80}
          domain={[(low: number) => Math.min(low, 0), (high: number) => Math.max(high, 0)]}
        />
        <ReferenceLine y={0} stroke={TEXT} strokeOpacity={0.6} />
        <Tooltip
          {...tooltipProps}
          labelFormatter={(label) => dateFormat(String(label))}
          formatter={(value) => moneyFormat(Number(value))}
        />
        <Area
          type="linear"
          baseValue={0}
          dataKey="netCashFlow"
          name={name}
          stroke={SERIES_COLOURS[0]}
          fill={SERIES_COLOURS[0]}
          fillOpacity={0.25}
          strokeWidth={2}
          isAnimationActive={false}
        />
      </AreaChart>
    </ResponsiveContainer>
  );
}
