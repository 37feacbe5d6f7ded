import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IndexLevel } from './fund-metrics.ts';
import {
  type FundInput,
  fundAnalytics,
  type NavStatement,
  quarterDates,
  quarterPoint,
  quarterSeries,
  type TypedFlow,
} from './fund-series.ts';
import { dayNumber, gridOf, npvSigns, npvSignsAtEveryPoint, type TimedFlow } from './rate.ts';

const isoDay = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);
const START = dayNumber('2012-01-01');
const byDate = <T extends { date: string }>(rows: T[]) =>
  rows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));

/** Random funds: calls, fees and distributions over up to ten years, some NAV statements, maybe an index that may not cover them. */
const funds = fc
  .record({
    flows: fc.array(
      fc.record({
        day: fc.integer({ min: 0, max: 3_650 }),
        type: fc.constantFrom('Capital call', 'Capital call', 'Fee outside commitment', 'Distribution', 'Distribution'),
        amount: fc.integer({ min: 1, max: 5e8 }).map((cents) => cents / 100),
      }),
      { minLength: 1, maxLength: 40 },
    ),
    statements: fc.array(
      fc.record({
        day: fc.integer({ min: 0, max: 3_700 }),
        nav: fc.integer({ min: 0, max: 1e10 }).map((cents) => cents / 100),
        manual: fc.boolean(),
      }),
      { maxLength: 4 },
    ),
    index: fc.option(
      fc.record({
        from: fc.integer({ min: -60, max: 200 }),
        to: fc.integer({ min: 3_000, max: 3_800 }),
        drift: fc.double({ min: -0.3, max: 0.4, noNaN: true }),
        seed: fc.integer({ min: 1, max: 1e6 }),
      }),
    ),
    asOf: fc.integer({ min: 0, max: 3_800 }),
  })
  .map(({ flows, statements, index, asOf }): { fund: FundInput; asOf: string } => {
    let levels: IndexLevel[] | undefined;
    if (index) {
      levels = [];
      let noise = index.seed;
      for (let day = index.from; day <= index.to; day += 1 + (noise % 3)) {
        noise = (noise * 48_271) % 2_147_483_647;
        levels.push({
          date: isoDay(START + day),
          level: 100 * (1 + index.drift) ** (day / 365) * (0.9 + (noise % 1000) / 5000),
        });
      }
    }
    return {
      fund: {
        flows: byDate(flows.map((flow) => ({ date: isoDay(START + flow.day), type: flow.type, amount: flow.amount }))),
        statements: byDate(
          statements.map(
            (s, i): NavStatement => ({
              id: i + 1,
              date: isoDay(START + s.day),
              nav: s.nav,
              source: s.manual ? 'manual' : 'computed',
            }),
          ),
        ),
        committed: null,
        index: levels,
      },
      asOf: isoDay(START + asOf),
    };
  });

describe('the quarterly series', () => {
  it('equals the calculator run at every quarter end, on random funds (with and without an index)', () => {
    fc.assert(
      fc.property(funds, ({ fund, asOf }) => {
        const first = (fund.flows[0] as TypedFlow).date;
        if (first > asOf) return;
        const dates = quarterDates(first, asOf);
        expect(quarterSeries(fund, dates)).toEqual(dates.map((date) => quarterPoint(fund, date)));
      }),
      { numRuns: 60 },
    );
  });

  it('equals it for a fund whose flows change sign at almost every date, its index ending before the last quarters', () => {
    const flows: TypedFlow[] = Array.from({ length: 150 }, (_, i) => ({
      date: isoDay(START + 11 * i),
      type: i % 3 === 0 ? 'Distribution' : 'Capital call',
      amount: 1000 + ((i * 7919) % 5000),
    }));
    const index: IndexLevel[] = Array.from({ length: 600 }, (_, i) => ({
      date: isoDay(START - 10 + 2 * i),
      level: 100 + 10 * Math.sin(i / 30) + i / 10,
    }));
    const fund: FundInput = { flows, statements: [], committed: 5e5, index };
    const dates = quarterDates(flows[0]?.date as string, isoDay(START + 1_700));
    const series = quarterSeries(fund, dates);
    expect(series).toEqual(dates.map((date) => quarterPoint(fund, date)));
    expect(series.some((point) => point.irr.roots && point.irr.roots.length > 0)).toBe(true);
    expect(series.some((point) => point.directAlpha?.value !== null)).toBe(true);
    expect(series.some((point) => point.directAlpha?.reason === 'index_not_covering')).toBe(true);
  });

  it('fundAnalytics answers that series from flows and statements in any order', () => {
    const flows: TypedFlow[] = [
      { date: '2020-05-01', type: 'Distribution', amount: 300 },
      { date: '2019-02-10', type: 'Capital call', amount: 1000 },
      { date: '2021-07-01', type: 'Distribution', amount: 900 },
    ];
    const fund: FundInput = { flows, statements: [], committed: 1000 };
    const { series } = fundAnalytics(fund, '2021-12-31');
    const sorted: FundInput = { ...fund, flows: [...flows].sort((a, b) => (a.date < b.date ? -1 : 1)) };
    expect(series).toEqual(quarterDates('2019-02-10', '2021-12-31').map((date) => quarterPoint(sorted, date)));
    expect(series.at(-1)?.tvpi.value).toBeCloseTo(1.2, 12);
  });
});

describe('the scan for several rates', () => {
  it('skips points only where the signs provably stay: the same signs as at every point', () => {
    const flowSets = fc
      .array(fc.record({ gap: fc.integer({ min: 1, max: 200 }), amount: fc.integer({ min: -1e9, max: 1e9 }) }), {
        minLength: 3,
        maxLength: 120,
      })
      .map((rows) => {
        let day = 0;
        return rows
          .filter(({ amount }) => amount !== 0)
          .map(({ gap, amount }, i): TimedFlow => {
            if (i > 0) day += gap;
            return { time: day / 365, amount: amount / 100 };
          });
      });
    fc.assert(
      fc.property(flowSets, fc.double({ min: 0.5, max: 50, noNaN: true }), (flows, reach) => {
        if (flows.length < 2) return;
        const count = 3000;
        const w = Math.asinh(reach / 1e-3);
        const points = Array.from({ length: count + 1 }, (_, i) => 1e-3 * Math.sinh(-w + (2 * w * i) / count));
        points.splice(count / 2, 1, 0);
        expect(npvSigns(flows, gridOf(points))).toEqual(npvSignsAtEveryPoint(flows, gridOf(points)));
      }),
      { numRuns: 150 },
    );
  });
});
