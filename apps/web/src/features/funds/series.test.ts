import type { QuarterPoint } from '@data-platform/shared/analytics/fund-metrics-api';
import { describe, expect, it } from 'vitest';
import { quarterPoints } from './series.ts';

const point = (date: string, tvpi: number | null, netCashFlow: number): QuarterPoint => ({
  date,
  paidIn: 100,
  distributed: 0,
  nav: 90,
  navKind: 'record',
  netCashFlow,
  dpi: { value: 0 },
  rvpi: { value: tvpi },
  tvpi: { value: tvpi },
  irr: { value: null, reason: 'no_sign_change', annualised: false, days: 10 },
});

describe('quarterPoints', () => {
  it('orders the quarters and keeps an undefined metric as a gap, never a zero', () => {
    const points = quarterPoints([point('2024-06-30', 0.9, -100), point('2024-03-31', null, -50)]);
    expect(points.map((p) => p.date)).toEqual(['2024-03-31', '2024-06-30']);
    expect(points[0]).toMatchObject({ tvpi: null, irr: null, netCashFlow: -50 });
    expect(points[1]).toMatchObject({ tvpi: 0.9, dpi: 0, netCashFlow: -100 });
  });
});
