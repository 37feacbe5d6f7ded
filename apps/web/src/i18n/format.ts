import type { Money } from '@data-platform/shared/fields/field-types';
import { useTranslation } from 'react-i18next';

function build(language: string) {
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
  const compact = new Intl.NumberFormat(language, { notation: 'compact', maximumFractionDigits: 1 });
  const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
  const dateTime = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  return {
    number: (value: number) => number.format(value),
    compact: (value: number) => compact.format(value),
    percent: (value: number) => `${number.format(value)} %`,
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
