import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { formatters } from '../../i18n/format.ts';
import { compactMoney, metricText, reasonText } from './metric-text.ts';

// The keys and their options, as a translation would receive them.
const t = ((key: string, options?: Record<string, unknown>) =>
  options ? `${key} ${JSON.stringify(options)}` : key) as unknown as TFunction;
const en = formatters('en');
const fr = formatters('fr');

describe('metricText', () => {
  it('writes multiples with an "x" and two decimals, per language', () => {
    expect(metricText(t, en, { value: 1.256 }, 'multiple')).toEqual({ text: '1.26x', defined: true });
    expect(metricText(t, fr, { value: 1.256 }, 'multiple').text).toBe('1,26x');
  });

  it('writes a rate or ratio as a percentage of the fraction', () => {
    expect(metricText(t, en, { value: 0.373362535, annualised: true, days: 456 }, 'rate')).toEqual({
      text: '37.34 %',
      defined: true,
    });
    expect(metricText(t, fr, { value: 0.25 }, 'ratio').text).toBe('25 %');
  });

  it('writes money in the fund currency, a plain number without one', () => {
    expect(metricText(t, en, { value: 1_000_000 }, 'money', 'EUR').text).toBe('€1,000,000');
    expect(metricText(t, en, { value: 1500 }, 'money', null).text).toBe('1,500');
  });

  it('shows "—" and the translated reason when the metric is not defined', () => {
    expect(metricText(t, en, { value: null, reason: 'no_sign_change', message: 'No sign change' }, 'rate')).toEqual({
      text: '—',
      note: 'funds:reasons.no_sign_change',
      defined: false,
    });
  });

  it("falls back to the API's message for a reason it does not know", () => {
    expect(reasonText(t, { value: null, reason: 'something_new', message: 'Something new' })).toBe('Something new');
  });

  it('says a rate over less than a year is not annualised, and names every root of several', () => {
    const shown = metricText(t, en, { value: 0.05, annualised: false, days: 200, roots: [0.05, 0.4] }, 'rate');
    expect(shown.text).toBe('5 %');
    expect(shown.note).toContain('funds:notAnnualised {"days":200}');
    expect(shown.note).toContain('funds:severalRoots {"roots":"5 %, 40 %"}');
    // An annualised rate carries no note.
    expect(metricText(t, en, { value: 0.05, annualised: true, days: 400 }, 'rate').note).toBeUndefined();
  });

  it('treats an infinite value as not defined', () => {
    expect(metricText(t, en, { value: Number.POSITIVE_INFINITY }, 'multiple').defined).toBe(false);
  });
});

describe('compactMoney', () => {
  it('writes amounts short for an axis', () => {
    expect(compactMoney('en', 'USD', 1_200_000)).toBe('$1.2M');
    expect(compactMoney('fr', 'EUR', 1_200_000)).toMatch(/^1,2\s?M\s?€$/);
  });
});
