import type { Money } from '@data-platform/shared/fields/field-types';
import { useTranslation } from 'react-i18next';

/** File size units by powers of 1000, as Intl names them ("3 MB", "3 Mo"). */
const sizeUnits = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** A size in bytes as people read it: "512 bytes", "3 MB", "3.1 MB", "12 kB" (one decimal below 10). */
function fileSize(language: string, bytes: number): string {
  if (!Number.isFinite(bytes) || Math.abs(bytes) < 1000) {
    return new Intl.NumberFormat(language, { style: 'unit', unit: 'byte', unitDisplay: 'long' }).format(bytes);
  }
  let value = bytes / 1000;
  let unit = 0;
  while (Math.abs(value) >= 999.95 && unit < sizeUnits.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: sizeUnits[unit],
    unitDisplay: 'short',
    maximumFractionDigits: Math.abs(value) < 9.95 ? 1 : 0,
  }).format(value);
}

/** How numbers are written in a language: its thousands and decimal separators ("," and "." in English). */
export function numberSeparators(language: string): { thousand: string; decimal: string } {
  const parts = new Intl.NumberFormat(language).formatToParts(1234567.5);
  return {
    thousand: parts.find((part) => part.type === 'group')?.value ?? ',',
    decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.',
  };
}

function build(language: string) {
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
  const twoDecimals = new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const compact = new Intl.NumberFormat(language, { notation: 'compact', maximumFractionDigits: 1 });
  const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
  const dateTime = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  return {
    number: (value: number) => number.format(value),
    compact: (value: number) => compact.format(value),
    percent: (value: number) => `${number.format(value)} %`,
    /** A multiple of what was put in (DPI, TVPI, MOIC): always two decimals and "x", `4.20x` (French `4,20x`). */
    multiple: (value: number) => `${twoDecimals.format(value)}x`,
    /** A size in bytes: "3 MB" (French "3 Mo"), one decimal below 10. */
    fileSize: (bytes: number) => fileSize(language, bytes),
    money: (value: Money) =>
      new Intl.NumberFormat(language, { style: 'currency', currency: value.currency, maximumFractionDigits: 0 }).format(
        value.amount,
      ),
    /** A calendar date as the API sends it (`2024-12-31`). */
    date: (value: string) => date.format(new Date(`${value.slice(0, 10)}T00:00:00Z`)),
    dateTime: (value: string) => dateTime.format(new Date(value)),
  };
}

export type Formatters = ReturnType<typeof build>;

const cache = new Map<string, Formatters>();

/** Formatters for numbers, money and dates in a language (built once per language). */
export function formatters(language: string): Formatters {
  let found = cache.get(language);
  if (!found) {
    found = build(language);
    cache.set(language, found);
  }
  return found;
}

/** The formatters of the current language; components re-render when it changes. */
export function useFormat(): Formatters {
  const { i18n } = useTranslation();
  return formatters(i18n.resolvedLanguage ?? i18n.language);
}
