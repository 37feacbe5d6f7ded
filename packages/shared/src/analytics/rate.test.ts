import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import libreOffice from './fixtures/libreoffice-xirr.json' with { type: 'json' };
import { type DatedFlow, dayNumber, irr, solveRate, xirr, xnpv } from './rate.ts';

/** Microsoft's XIRR and XNPV example (support.microsoft.com, XIRR function). */
const microsoft: DatedFlow[] = [
  { date: '2008-01-01', amount: -10000 },
  { date: '2008-03-01', amount: 2750 },
  { date: '2008-10-30', amount: 4250 },
  { date: '2009-02-15', amount: 3250 },
  { date: '2009-04-01', amount: 2750 },
];

const isoDay = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

describe('published answers', () => {
  it("Microsoft's XIRR example: 0.373362535 as Excel prints it, 0.37336253351883 exactly", () => {
    const answer = xirr(microsoft);
    const rate = answer.value as number;
    // The exact root, by bisection in 50-digit decimal arithmetic: 0.3733625335188315103…; LibreOffice Calc
    // answers 0.373362533518832. Excel's printed 0.373362535 is 1.48e-9 from it: Excel's XIRR stops iterating
    // early. Ours is within 1e-15 of the exact root, and so within Excel's printed figure's 9 digits plus its
    // own stopping error (< 2e-9).
    expect(Math.abs(rate - 0.3733625335188315)).toBeLessThan(1e-15);
    expect(Math.abs(rate - 0.373362533518832)).toBeLessThan(1e-14);
    expect(Math.abs(rate - 0.373362535)).toBeLessThan(2e-9);
    expect(answer).toMatchObject({ signChanges: 1 });
    expect(answer.reason).toBeUndefined();
  });

  it("Microsoft's XNPV example at 9 %: 2086.647602", () => {
    // Excel prints 2086.647602; LibreOffice Calc answers 2086.64760203154.
    expect(Math.abs((xnpv(0.09, microsoft) as number) - 2086.647602)).toBeLessThan(5e-7);
    expect(Math.abs((xnpv(0.09, microsoft) as number) - 2086.64760203154)).toBeLessThan(1e-9);
    // The flows in any order: the first date is the earliest one.
    expect(xnpv(0.09, [...microsoft].reverse())).toBeCloseTo(xnpv(0.09, microsoft) as number, 9);
  });

  it("Microsoft's IRR example: −2.1 % over four years, 8.7 % over five, −44.4 % over two", () => {
    const four = irr([-70000, 12000, 15000, 18000, 21000]).value as number;
    const five = irr([-70000, 12000, 15000, 18000, 21000, 26000]).value as number;
    const two = irr([-70000, 12000, 15000]).value as number;
    expect(Number((four * 100).toFixed(1))).toBe(-2.1);
    expect(Number((five * 100).toFixed(1))).toBe(8.7);
    expect(Number((two * 100).toFixed(1))).toBe(-44.4);
    // The same to more digits, as LibreOffice Calc answers them.
    expect(four).toBeCloseTo(-0.0212448482734, 12);
    expect(five).toBeCloseTo(0.0866309480365, 12);
  });
});

describe('rates that are not defined', () => {
  it('no change of sign: null with the reason', () => {
    expect(irr([-100, -50, -10])).toMatchObject({ value: null, reason: 'no_sign_change' });
    expect(irr([100, 50])).toMatchObject({ value: null, reason: 'no_sign_change' });
    expect(xirr([{ date: '2020-01-01', amount: -5 }])).toMatchObject({ value: null, reason: 'no_sign_change' });
  });

  it('flows of one date, no flows, zero flows only, a date that does not exist', () => {
    // Flows of one date are summed first: −5 and +6 on one day are +1, one distribution.
    expect(
      xirr([
        { date: '2020-01-01', amount: -5 },
        { date: '2020-01-01', amount: 6 },
      ]),
    ).toMatchObject({
      value: null,
      reason: 'no_sign_change',
    });
    expect(xirr([])).toMatchObject({ value: null, reason: 'no_flows' });
    expect(irr([0, 0])).toMatchObject({ value: null, reason: 'no_flows' });
    expect(
      xirr([
        { date: '2021-02-29', amount: -5 },
        { date: '2022-01-01', amount: 6 },
      ]),
    ).toMatchObject({
      value: null,
      reason: 'invalid_flow',
    });
    expect(irr([-1, Number.NaN])).toMatchObject({ value: null, reason: 'invalid_flow' });
  });

  it('several changes of sign and no rate: null, saying so', () => {
    // −100, +100, −100: NPV = −100 (1 − x + x²) < 0 for every x.
    const answer = irr([-100, 100, -100]);
    expect(answer).toMatchObject({ value: null, reason: 'no_root', signChanges: 2 });
    expect(answer.message).toMatch(/change sign 2 times/);
  });

  it('several rates: all listed, the one nearest zero answered and named', () => {
    // −100 + 230 x − 132 x² = 0 at 1 + r = 1.1 and 1.2.
    const answer = irr([-100, 230, -132]);
    expect(answer.roots).toHaveLength(2);
    expect(answer.roots?.[0]).toBeCloseTo(0.1, 12);
    expect(answer.roots?.[1]).toBeCloseTo(0.2, 12);
    expect(answer.value).toBeCloseTo(0.1, 12);
    expect(answer.message).toMatch(/nearest zero/);
    // Roots on both sides of zero, −10 % and +20 %: with x = 1 / (1 + r), (x − 1/0.9)(x − 1/1.2) = 0.
    const both = solveRate([
      { time: 0, amount: 1 / 1.08 },
      { time: 1, amount: -(1 / 0.9 + 1 / 1.2) },
      { time: 2, amount: 1 },
    ]);
    expect(both.roots?.map((r) => Number(r.toFixed(12)))).toEqual([-0.1, 0.2]);
    expect(both.value).toBeCloseTo(-0.1, 12);
    expect(both.message).toMatch(/2 rates/);
  });

  it('two rates closer together than the scan grid: both found at the turning point between them', () => {
    // 10 % and 10.001 %: with x = 1 / (1 + r), (x − 1/1.1)(x − 1/1.10001) = 0.
    const [x1, x2] = [1 / 1.1, 1 / 1.10001];
    const answer = solveRate([
      { time: 0, amount: x1 * x2 },
      { time: 1, amount: -(x1 + x2) },
      { time: 2, amount: 1 },
    ]);
    expect(answer.roots).toHaveLength(2);
    expect(Math.abs((answer.roots?.[0] as number) - 0.1)).toBeLessThan(1e-7);
    expect(Math.abs((answer.roots?.[1] as number) - 0.10001)).toBeLessThan(1e-7);
  });

  it('a rate nearer −100 % than a number can be: out of range, and said so', () => {
    // Found by the NPV property (fast-check seed -1165941791): 1 + rate ≈ e^-37.5 ≈ 5e-17, under 2^-53.
    expect(
      xirr([
        { date: '1994-01-07', amount: -45.99 },
        { date: '1989-12-27', amount: -1 },
        { date: '1994-02-05', amount: 2.35 },
      ]),
    ).toMatchObject({ value: null, reason: 'rate_out_of_range', message: expect.stringContaining('-100 %') });
  });

  it('a rate too large for a number: out of range, not a wrong number', () => {
    // Doubling in one day is 2^365 − 1 a year (≈ 7.5e109): representable; a factor of 10^9 in a day is not.
    expect(
      xirr([
        { date: '2020-01-01', amount: -1 },
        { date: '2020-01-02', amount: 2 },
      ]).value,
    ).toBeCloseTo(2 ** 365 - 1, -100);
    expect(
      xirr([
        { date: '2020-01-01', amount: -1 },
        { date: '2020-01-02', amount: 1e9 },
      ]),
    ).toMatchObject({
      value: null,
      reason: 'rate_out_of_range',
    });
  });
});

/**
 * Fund-like flows: calls then distributions over up to 12 years from 1990 onwards, amounts in cents, the
 * distributions totalling 0.05 to 20 times the calls (beyond that a rate near −100 % cannot be written
 * precisely as a rate: 1 + r keeps few digits).
 */
const flowsArbitrary = fc
  .record({
    start: fc.integer({ min: 7_300, max: 20_000 }),
    calls: fc.array(fc.record({ day: fc.integer({ min: 0, max: 1_500 }), cents: fc.integer({ min: 100, max: 1e9 }) }), {
      minLength: 1,
      maxLength: 8,
    }),
    distributions: fc.array(
      fc.record({ day: fc.integer({ min: 1_501, max: 4_400 }), weight: fc.integer({ min: 1, max: 100 }) }),
      { minLength: 1, maxLength: 8 },
    ),
    multiple: fc.double({ min: 0.05, max: 20, noNaN: true }),
  })
  .map(({ start, calls, distributions, multiple }) => {
    const called = calls.reduce((sum, { cents }) => sum + cents, 0);
    const weights = distributions.reduce((sum, { weight }) => sum + weight, 0);
    return [
      ...calls.map(({ day, cents }) => ({ date: isoDay(start + day), amount: -cents / 100 })),
      ...distributions.map(({ day, weight }) => ({
        date: isoDay(start + day),
        amount: Math.max(1, Math.round((called * multiple * weight) / weights)) / 100,
      })),
    ];
  });

/** |d XNPV / d rate|, bounded by the sum of each flow's own term: Σ t·|amount| / (1 + rate)^(t + 1). */
function npvSlope(rate: number, flows: readonly DatedFlow[]): number {
  const start = Math.min(...flows.map(({ date }) => dayNumber(date)));
  return flows.reduce((sum, { date, amount }) => {
    const time = (dayNumber(date) - start) / 365;
    return sum + (time * Math.abs(amount)) / (1 + rate) ** (time + 1);
  }, 0);
}

describe('properties', () => {
  it('the NPV at the rate answered is zero (relative to the flows)', () => {
    fc.assert(
      fc.property(flowsArbitrary, (flows) => {
        const answer = xirr(flows);
        const rate = answer.value;
        if (rate === null) {
          // Only where no number brackets the rate: the NPV has one sign from the number nearest above −100 %
          // (1 + rate = 2^-53) to the largest rate a double holds.
          expect(answer.reason).toBe('rate_out_of_range');
          const nearest = xnpv(-1 + 2 ** -53, flows) as number;
          const largest = xnpv(1e300, flows) as number;
          expect(Math.sign(nearest)).toBe(Math.sign(largest));
          return;
        }
        const scale = flows.reduce((sum, { amount }) => sum + Math.abs(amount), 0);
        // Relative to the flows discounted at that rate, the largest of which is at least the first one.
        const discounted = xnpv(
          rate as number,
          flows.map((f) => ({ ...f, amount: Math.abs(f.amount) })),
        ) as number;
        // Near −100 % the nearest double to the exact rate may itself leave an NPV of that size: a few
        // units in the last place of the rate, times how fast the NPV moves with it.
        const representable = 4 * Number.EPSILON * Math.abs(rate as number) * npvSlope(rate as number, flows);
        expect(Math.abs(xnpv(rate as number, flows) as number)).toBeLessThan(
          1e-9 * Math.max(discounted, scale) + representable,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('scaling every flow leaves the rate unchanged', () => {
    fc.assert(
      fc.property(flowsArbitrary, fc.double({ min: 1e-3, max: 1e6, noNaN: true }), (flows, factor) => {
        const rate = xirr(flows).value as number;
        const scaled = xirr(flows.map((f) => ({ ...f, amount: f.amount * factor }))).value as number;
        expect(Math.abs(scaled - rate)).toBeLessThan(1e-9 * Math.max(1, Math.abs(rate)));
      }),
      { numRuns: 300 },
    );
  });

  it('shifting every date by the same days leaves the rate unchanged', () => {
    fc.assert(
      fc.property(flowsArbitrary, fc.integer({ min: -5_000, max: 5_000 }), (flows, shift) => {
        const rate = xirr(flows).value as number;
        const shifted = xirr(flows.map((f) => ({ ...f, date: isoDay(dayNumber(f.date) + shift) }))).value as number;
        expect(Math.abs(shifted - rate)).toBeLessThan(1e-12 * Math.max(1, Math.abs(rate)));
      }),
      { numRuns: 300 },
    );
  });

  it('flows of one sign have no rate, with the reason', () => {
    fc.assert(
      fc.property(flowsArbitrary, fc.boolean(), (flows, negative) => {
        const oneSign = flows.map((f) => ({ ...f, amount: Math.abs(f.amount) * (negative ? -1 : 1) }));
        expect(xirr(oneSign)).toMatchObject({ value: null, reason: 'no_sign_change' });
      }),
    );
  });

  it('flows changing sign more than once: every root answered makes the NPV zero, and the answer is one of them', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e6, max: 1e6 }), { minLength: 3, maxLength: 12 }), (amounts) => {
        const answer = irr(amounts);
        for (const rate of answer.roots ?? (answer.value === null ? [] : [answer.value])) {
          const npv = amounts.reduce((sum, a, t) => sum + a / (1 + rate) ** t, 0);
          const size = amounts.reduce((sum, a, t) => sum + Math.abs(a) / (1 + rate) ** t, 0);
          expect(Math.abs(npv)).toBeLessThan(1e-9 * size);
        }
        if (answer.roots) expect(answer.roots).toContain(answer.value);
        if (answer.value === null) expect(answer.reason).toBeDefined();
      }),
      { numRuns: 500 },
    );
  });
});

describe("LibreOffice Calc's XIRR on 200 random flow sets (fixtures/libreoffice-xirr.json)", () => {
  const sets = libreOffice.sets as { flows: DatedFlow[]; libreoffice: number | null; error?: string }[];

  it('holds 200 sets made by LibreOffice', () => {
    expect(sets).toHaveLength(200);
    expect(libreOffice.libreoffice).toMatch(/^LibreOffice \d/);
  });

  it('answers the rate LibreOffice answers, to 1e-7, and a verified rate or a reason where LibreOffice gives up', () => {
    let compared = 0;
    let severalRoots = 0;
    for (const [i, { flows, libreoffice }] of sets.entries()) {
      const ours = xirr(flows);
      if (libreoffice === null) {
        // LibreOffice's Newton did not converge: ours is a rate with NPV zero, or null with a reason.
        if (ours.value === null) expect(ours.reason, `set ${i}`).toBeDefined();
        else expect(Math.abs(xnpv(ours.value, flows) as number), `set ${i}`).toBeLessThan(1e-6);
        continue;
      }
      compared++;
      if (ours.roots && ours.roots.length > 1) {
        // LibreOffice finds one of the rates; it is among ours.
        severalRoots++;
        expect(
          ours.roots.some((root) => Math.abs(root - libreoffice) < 1e-7),
          `set ${i}`,
        ).toBe(true);
      } else {
        // To 1e-7, relative above 100 % a year (a few sets last months and earn thousands of percent a year).
        expect(
          Math.abs((ours.value as number) - libreoffice) / Math.max(1, Math.abs(libreoffice)),
          `set ${i}: ${ours.value} vs ${libreoffice}`,
        ).toBeLessThan(1e-7);
      }
    }
    expect(compared).toBeGreaterThanOrEqual(195);
    expect(severalRoots).toBeLessThan(compared);
  });
});
