import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListArgs } from '../store/resource-api.ts';
import { countriesList, type Row } from '../store/resource-slices.ts';
import { useListInfiniteQuery } from './record-api.ts';

/** Every currency (there are fewer than a page of them), in the currencies area. */
const currenciesList: ListArgs = {
  params: [
    ['select', 'code,name'],
    ['pageSize', '1000'],
  ],
};

const noRows: Row[] = [];

/** The currencies people pick most, first in every currency picker, in this order. */
export const commonCurrencies = ['USD', 'EUR', 'GBP', 'CHF', 'JPY'] as const;

/** A currency in a picker: its code, read `USD · US dollar` (searched by either). */
export interface CurrencyOption {
  value: string;
  label: string;
}

/**
 * The currencies as a picker offers them: each with its name in the
 * interface's language (Intl; the platform's English name when Intl has
 * none), the common ones first, then by code.
 */
export function currencyOptions(
  currencies: readonly { code: string; name?: string | null }[],
  language: string,
): CurrencyOption[] {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([language], { type: 'currency', fallback: 'none' });
  } catch {
    names = undefined;
  }
  const rank = (code: string) => {
    const index = (commonCurrencies as readonly string[]).indexOf(code);
    return index === -1 ? commonCurrencies.length : index;
  };
  return [...currencies]
    .sort((a, b) => rank(a.code) - rank(b.code) || a.code.localeCompare(b.code))
    .map(({ code, name }) => {
      const named = names?.of(code) ?? name ?? '';
      const shown = named && named !== code ? named.charAt(0).toLocaleUpperCase(language) + named.slice(1) : '';
      return { value: code, label: shown ? `${code} · ${shown}` : code };
    });
}

/** The currencies as pickers offer them (see `currencyOptions`), fetched once. */
export function useCurrencies(): CurrencyOption[] {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const { data } = useListInfiniteQuery({ resource: 'currencies', ...currenciesList });
  return useMemo(
    () =>
      currencyOptions(
        (data?.pages[0]?.data ?? noRows).map((row) => ({ code: String(row.code), name: row.name as string | null })),
        language,
      ),
    [data, language],
  );
}

export interface Country extends Row {
  name: string;
  phoneCode: string | null;
  emoji: string | null;
  states?: { id: number; name: string }[];
}

/** The countries with their states: the countries area's start-up fetch (store.ts), read from its cache. */
export function useCountries(): Country[] {
  const { data } = useListInfiniteQuery({ resource: 'countries', ...countriesList });
  return (data?.pages[0]?.data ?? noRows) as Country[];
}
