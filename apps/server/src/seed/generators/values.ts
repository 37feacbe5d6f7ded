import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { Weighted } from '../random.ts';

/** Each fund reports this many quarter-ends, the last one at the dataset's reference date. */
export const QUARTERS = 8;

// Rows are dated over five years ending at a fixed date, so that a seed gives the same rows on any day.
export const START = Date.UTC(2021, 0, 1);
export const END = Date.UTC(2025, 11, 31, 18);
export const DAY = 86_400_000;
export const YEAR = 365.25 * DAY;

/** The last QUARTERS quarter-ends up to the end of 2025. */
export const quarterEnds: string[] = Array.from({ length: QUARTERS }, (_, i) => {
  const q = 4 * 2025 + 3 - (QUARTERS - 1 - i);
  const year = Math.floor(q / 4);
  const month = (q % 4) * 3 + 3;
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
});

const dates = new Map<number, string>();
const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** `new Date(ms).toISOString()`, several times faster: two of these per row add up over millions. */
export function isoDateTime(ms: number): string {
  const whole = Math.floor(ms);
  const day = Math.floor(whole / DAY);
  let date = dates.get(day);
  if (date === undefined) {
    date = new Date(day * DAY).toISOString().slice(0, 10);
    dates.set(day, date);
  }
  const t = whole - day * DAY;
  const time = `${pad(Math.floor(t / 3_600_000), 2)}:${pad(Math.floor(t / 60_000) % 60, 2)}:${pad(Math.floor(t / 1000) % 60, 2)}`;
  return `${date}T${time}.${pad(t % 1000, 3)}Z`;
}
export const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const money = (amount: number, currency: string) => ({ amount, currency });
/** Rounds to a "nice" precision: 2 significant digits for sizes and amounts. */
export function round2(value: number): number {
  if (value <= 0) return 0;
  const step = 10 ** Math.max(0, Math.floor(Math.log10(value)) - 1);
  return Math.round(value / step) * step;
}
export const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
/** Lower-case letters and digits only, for domains and email addresses. */
export const slug = (text: string) =>
  text
    .normalize('NFD')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

type Options<E extends EntityDescription, F extends keyof E['fields']> = E['fields'][F] extends {
  options: readonly (infer O)[];
}
  ? O
  : never;

/** Weights for a select field's options, checked against the description at compile time. */
export function weights<E extends EntityDescription, F extends keyof E['fields'] & string>(
  _entity: E,
  _field: F,
  table: readonly (readonly [Options<E, F>, number])[],
): Weighted<Options<E, F>> {
  return new Weighted(table);
}

/** 1 → I, 4 → IV, ...: the number of a fund in its series. */
export function roman(n: number): string {
  const numerals: [number, string][] = [
    [10, 'X'],
    [9, 'IX'],
    [5, 'V'],
    [4, 'IV'],
    [1, 'I'],
  ];
  let rest = n;
  let text = '';
  for (const [value, numeral] of numerals) {
    while (rest >= value) {
      text += numeral;
      rest -= value;
    }
  }
  return text;
}
