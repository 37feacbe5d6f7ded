import { useEffect, useMemo } from 'react';
import { useAppDispatch, useAppSelector } from '../store/hooks.ts';
import { getAll, type Row } from '../store/resource-slices.ts';

/** The currencies, fetched once. */
export function useCurrencies(): string[] {
  const dispatch = useAppDispatch();
  const items = useAppSelector((state) => state.currencies.items);
  useEffect(() => {
    void dispatch(
      getAll({
        resource: 'currencies',
        query: [
          ['select', 'code,name'],
          ['pageSize', '1000'],
        ],
        once: true,
      }),
    );
  }, [dispatch]);
  return useMemo(() => items.map((row) => String(row.code)), [items]);
}

export interface Country extends Row {
  name: string;
  phoneCode: string | null;
  emoji: string | null;
  states?: { id: number; name: string }[];
}

/** The countries with their states, fetched at sign-in. */
export const useCountries = () => useAppSelector((state) => state.countries.items) as Country[];
