import { useMemo } from 'react';
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

/** The currencies' codes, fetched once. */
export function useCurrencies(): string[] {
  const { data } = useListInfiniteQuery({ resource: 'currencies', ...currenciesList });
  return useMemo(() => (data?.pages[0]?.data ?? noRows).map((row) => String(row.code)), [data]);
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
