import { Skeleton } from '@mantine/core';
import { type ComponentProps, lazy, Suspense } from 'react';
import { CHART_HEIGHT } from './chart-size.ts';

// recharts loads with the first chart shown, not with the page's code (docs/decisions/0022-charts.md).
const LinesChartLazy = lazy(async () => ({ default: (await import('./fund-charts.tsx')).LinesChart }));
const JCurveChartLazy = lazy(async () => ({ default: (await import('./fund-charts.tsx')).JCurveChart }));

/** A chart hidden from screen readers (its caller shows the same figures as a table), its placeholder while it loads. */
function Hidden({ testId, children }: { testId: string; children: React.ReactNode }) {
  return (
    <div aria-hidden data-testid={testId}>
      <Suspense fallback={<Skeleton height={CHART_HEIGHT} />}>{children}</Suspense>
    </div>
  );
}

export function LinesChart({ testId, ...props }: ComponentProps<typeof LinesChartLazy> & { testId: string }) {
  return (
    <Hidden testId={testId}>
      <LinesChartLazy {...props} />
    </Hidden>
  );
}

export function JCurveChart({ testId, ...props }: ComponentProps<typeof JCurveChartLazy> & { testId: string }) {
  return (
    <Hidden testId={testId}>
      <JCurveChartLazy {...props} />
    </Hidden>
  );
}
