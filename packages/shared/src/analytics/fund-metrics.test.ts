import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fundMetrics, type IndexLevel, levelAt } from './fund-metrics.ts';
import { type DatedFlow, dayNumber, xirr } from './rate.ts';

const isoDay = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

/** A daily index from `from` to `to` growing at `rate` a year (Actual/365), starting at 100. */
function steadyIndex(from: string, to: string, rate: number): IndexLevel[] {
  const start = dayNumber(from);
  return Array.from({ length: dayNumber(to) - start + 1 }, (_, i) => ({
    date: isoDay(start + i),
    level: 100 * (1 + rate) ** (i / 365),
  }));
}

const fund: DatedFlow[] = [
  { date: '2015-03-10', amount: -400 },
  { date: '2016-01-20', amount: -350 },
  { date: '2017-06-30', amount: -250 },
  { date: '2018-05-15', amount: 150 },
  { date: '2019-11-01', amount: 500 },
  { date: '2021-02-26', amount: 420 },
];
const nav = { date: '2022-12-31', amount: 600 };

describe('multiples and IRR', () => {
  it('paid-in, distributed, DPI, RVPI, TVPI, PIC; the IRR includes the NAV as the last flow', () => {
    const metrics = fundMetrics({ flows: fund, nav, committed: 1250 });
    expect(metrics.paidIn.value).toBe(1000);
    expect(metrics.distributed.value).toBe(1070);
    expect(metrics.dpi.value).toBeCloseTo(1.07, 15);
    expect(metrics.rvpi.value).toBeCloseTo(0.6, 15);
    expect(metrics.tvpi.value).toBeCloseTo(1.67, 15);
    expect(metrics.pic.value).toBeCloseTo(0.8, 15);
    expect(metrics.irr.value).toBe(xirr([...fund, nav]).value);
    expect(metrics.irr).toMatchObject({ annualised: true, days: dayNumber('2022-12-31') - dayNumber('2015-03-10') });
    expect(metrics.asOf).toBe('2022-12-31');
  });

  it('counts no flow after the as-of date', () => {
    const later = fundMetrics({ flows: [...fund, { date: '2023-01-01', amount: 999 }], nav });
    expect(later.distributed.value).toBe(1070);
    expect(later.irr.value).toBe(fundMetrics({ flows: fund, nav }).irr.value);
  });

  it('under a year: the rate over the period, not annualised (GIPS)', () => {
    const metrics = fundMetrics({
      flows: [{ date: '2020-01-01', amount: -100 }],
      nav: { date: '2020-07-01', amount: 110 },
    });
    expect(metrics.irr.annualised).toBe(false);
    expect(metrics.irr.days).toBe(182);
    expect(metrics.irr.value).toBeCloseTo(0.1, 12);
    expect(metrics.irr.message).toMatch(/not annualised \(GIPS\)/);
    // The same over exactly a year is annualised.
    const year = fundMetrics({
      flows: [{ date: '2021-01-01', amount: -100 }],
      nav: { date: '2022-01-01', amount: 110 },
    });
    expect(year.irr).toMatchObject({ annualised: true, days: 365 });
    expect(year.irr.value).toBeCloseTo(0.1, 12);
  });

  it('null with a reason: nothing paid in, no commitment, no change of sign', () => {
    const metrics = fundMetrics({
      flows: [{ date: '2020-01-01', amount: 50 }],
      nav: { date: '2021-06-30', amount: 10 },
    });
    for (const name of ['dpi', 'rvpi', 'tvpi'] as const) {
      expect(metrics[name]).toMatchObject({ value: null, reason: 'nothing_paid_in' });
    }
    expect(metrics.pic).toMatchObject({ value: null, reason: 'no_commitment' });
    expect(metrics.irr).toMatchObject({ value: null, reason: 'no_sign_change' });
    expect(fundMetrics({ flows: fund, nav, committed: 0 }).pic).toMatchObject({ value: null, reason: 'no_commitment' });
  });

  it('TVPI = DPI + RVPI, whatever the flows', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ day: fc.integer({ min: 0, max: 3_000 }), amount: fc.integer({ min: -1e9, max: 1e9 }) }), {
          minLength: 1,
          maxLength: 30,
        }),
        fc.integer({ min: 0, max: 1e9 }),
        (flows, navCents) => {
          const metrics = fundMetrics({
            flows: flows.map(({ day, amount }) => ({ date: isoDay(15_000 + day), amount: amount / 100 })),
            nav: { date: isoDay(18_001), amount: navCents / 100 },
          });
          if (metrics.tvpi.value === null) {
            expect(metrics.paidIn.value).toBe(0);
            expect(metrics.dpi.value).toBeNull();
            return;
          }
          const sum = (metrics.dpi.value as number) + (metrics.rvpi.value as number);
          expect(Math.abs(metrics.tvpi.value - sum)).toBeLessThanOrEqual(1e-12 * Math.max(1, metrics.tvpi.value));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('against an index', () => {
  it('a hand-computed case: KS-PME, Long–Nickels NAV and IRR, PME+ lambda and IRR, Direct Alpha', () => {
    const flows = [
      { date: '2020-01-01', amount: -100 },
      { date: '2021-01-01', amount: 60 },
    ];
    const index = [
      { date: '2020-01-01', level: 100 },
      { date: '2021-01-01', level: 120 },
      { date: '2022-01-01', level: 150 },
    ];
    const metrics = fundMetrics({ flows, nav: { date: '2022-01-01', amount: 70 }, index });
    // (60 · 150/120 + 70) / (100 · 150/100) = 145 / 150
    expect(metrics.ksPme.value).toBeCloseTo(145 / 150, 15);
    // The index holds 100 · 1.5 − 60 · 1.25 = 75 at the end.
    expect(metrics.lnPme.nav.value).toBeCloseTo(75, 12);
    const lnIrr = xirr([...flows, { date: '2022-01-01', amount: 75 }]).value as number;
    expect(metrics.lnPme.irr.value).toBeCloseTo(lnIrr, 14);
    expect(metrics.lnPme.spread.value).toBeCloseTo((metrics.irr.value as number) - lnIrr, 14);
    // lambda = (150 − 70) / 75
    expect(metrics.pmePlus.lambda.value).toBeCloseTo(80 / 75, 14);
    const plusIrr = xirr([
      flows[0] as DatedFlow,
      { date: '2021-01-01', amount: 64 },
      { date: '2022-01-01', amount: 70 },
    ]);
    expect(metrics.pmePlus.irr.value).toBeCloseTo(plusIrr.value as number, 14);
    // Direct Alpha: the IRR a of −150, +75, +70 at the same dates; alpha = ln(1 + a).
    const a = xirr([
      { date: '2020-01-01', amount: -150 },
      { date: '2021-01-01', amount: 75 },
      { date: '2022-01-01', amount: 70 },
    ]).value as number;
    expect(metrics.directAlpha.discrete).toBeCloseTo(a, 14);
    expect(metrics.directAlpha.value).toBeCloseTo(Math.log1p(a), 14);
    expect(metrics.directAlpha.annualised).toBe(true);
  });

  it('an index growing 10 % a year: Long–Nickels and PME+ earn 10 %, Direct Alpha is the IRR in excess of it', () => {
    const index = steadyIndex('2015-01-01', '2023-12-31', 0.1);
    const metrics = fundMetrics({ flows: fund, nav, index });
    expect(metrics.lnPme.irr.value).toBeCloseTo(0.1, 10);
    expect(metrics.pmePlus.irr.value).toBeCloseTo(0.1, 10);
    const fundIrr = metrics.irr.value as number;
    expect(metrics.directAlpha.discrete).toBeCloseTo((1 + fundIrr) / 1.1 - 1, 10);
    expect(metrics.directAlpha.value).toBeCloseTo(Math.log1p(fundIrr) - Math.log(1.1), 10);
    expect(metrics.lnPme.spread.value).toBeCloseTo(fundIrr - 0.1, 10);
    // KS-PME above 1 exactly when the fund beat the index.
    expect((metrics.ksPme.value as number) > 1).toBe(fundIrr > 0.1);
  });

  it('a flat index: KS-PME equals TVPI, the index IRRs are zero, Direct Alpha is ln(1 + IRR)', () => {
    const index = [
      { date: '2010-01-01', level: 250 },
      { date: '2030-01-01', level: 250 },
    ];
    const metrics = fundMetrics({ flows: fund, nav, index });
    expect(metrics.ksPme.value).toBeCloseTo(metrics.tvpi.value as number, 14);
    expect(metrics.lnPme.irr.value).toBeCloseTo(0, 12);
    expect(metrics.pmePlus.irr.value).toBeCloseTo(0, 12);
    expect(metrics.directAlpha.value).toBeCloseTo(Math.log1p(metrics.irr.value as number), 12);
  });

  it('the level at a date: the last on or before it, none outside the series', () => {
    const index = [
      { date: '2020-01-03', level: 101 },
      { date: '2020-01-01', level: 100 },
      { date: '2020-01-06', level: 104 },
    ];
    expect(levelAt(index, '2020-01-01')).toBe(100);
    expect(levelAt(index, '2020-01-02')).toBe(100);
    expect(levelAt(index, '2020-01-05')).toBe(101);
    expect(levelAt(index, '2020-01-06')).toBe(104);
    expect(levelAt(index, '2019-12-31')).toMatch(/starts on 2020-01-01/);
    expect(levelAt(index, '2020-01-07')).toMatch(/ends on 2020-01-06/);
  });

  it('null with a reason: no index, an index that starts late or ends early, no distributions to scale', () => {
    const none = fundMetrics({ flows: fund, nav });
    expect(none.ksPme).toMatchObject({ value: null, reason: 'no_index' });
    expect(none.lnPme.irr).toMatchObject({ value: null, reason: 'no_index' });
    expect(none.directAlpha).toMatchObject({ value: null, reason: 'no_index', discrete: null });
    const late = fundMetrics({ flows: fund, nav, index: steadyIndex('2016-01-01', '2023-01-01', 0.05) });
    expect(late.ksPme).toMatchObject({ value: null, reason: 'index_not_covering' });
    expect(late.ksPme.message).toMatch(/starts on 2016-01-01, after the flow of 2015-03-10/);
    const early = fundMetrics({ flows: fund, nav, index: steadyIndex('2015-01-01', '2022-06-30', 0.05) });
    expect(early.pmePlus.lambda).toMatchObject({ value: null, reason: 'index_not_covering' });
    expect(early.pmePlus.lambda.message).toMatch(/ends on 2022-06-30, before 2022-12-31/);
    const calls = fundMetrics({
      flows: fund.filter((f) => f.amount < 0),
      nav,
      index: steadyIndex('2015-01-01', '2023-01-01', 0.05),
    });
    expect(calls.pmePlus.lambda).toMatchObject({ value: null, reason: 'no_distributions' });
    expect(calls.pmePlus.irr).toMatchObject({ value: null, reason: 'no_distributions' });
    expect(calls.ksPme.value).not.toBeNull();
  });

  it('Long–Nickels short of the index: says so when the fund distributed more than the index would have held', () => {
    const metrics = fundMetrics({
      flows: [
        { date: '2020-01-01', amount: -100 },
        { date: '2021-01-01', amount: 300 },
      ],
      nav: { date: '2022-01-01', amount: 10 },
      index: steadyIndex('2020-01-01', '2022-01-01', 0),
    });
    expect(metrics.lnPme.nav.value).toBeCloseTo(-200, 10);
    expect(metrics.lnPme.irr.message).toMatch(/ends short/);
  });
});
