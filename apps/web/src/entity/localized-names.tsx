import { findEntity } from '@data-platform/shared/entities/registry';
import type { ComboboxParsedItem } from '@mantine/core';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { countryName, iso2FromFlag } from '../i18n/country-names.ts';
import { type Country, useCountries } from './reference-data.ts';

/**
 * The one resource the store loads whole at start (resource-slices.ts,
 * `countriesList`, which selects the flag): its rows are named, and searched,
 * here without asking the server.
 */
const LOADED_AT_START = 'countries';

/**
 * The language the stored names are written in (the countries' reference
 * data is English): an interface in it shows them as stored, so that what
 * it reads is what the server searches, sorts and exports ("Czech
 * Republic", not Intl's "Czechia").
 */
const STORED_LANGUAGE = 'en';

/**
 * Whether a resource's rows are named in the interface's language rather
 * than by their stored display field: its description names a `regionFlag`
 * field, and the store keeps every row (countries).
 */
export function localizesNames(resource: string | undefined): boolean {
  return resource === LOADED_AT_START && Boolean(findEntity(resource)?.regionFlag);
}

/** A row of a picker: the id and the name it reads, and its stored name (searched too). */
export interface NamedOption {
  value: string;
  label: string;
  stored?: string;
}

export interface LocalizedNames {
  /** Whether this resource's names are localized (see `localizesNames`). */
  localized: boolean;
  /** Every row, named in the interface's language and in its alphabetical order (empty when not localized). */
  options: readonly NamedOption[];
  /** A row's name by its id: in the interface's language where known, else `stored`. */
  name: (id: unknown, stored: string) => string;
}

const noOptions: readonly NamedOption[] = [];
const noNames: ReadonlyMap<string, NamedOption> = new Map<string, NamedOption>();

/**
 * The countries' names by id in a language, worked out once per list the
 * store holds and language (every country cell of a grid asks).
 */
const namesCache = new WeakMap<readonly Country[], Map<string, ReadonlyMap<string, NamedOption>>>();

export function countryNames(
  countries: readonly Country[],
  flagField: string,
  language: string,
): ReadonlyMap<string, NamedOption> {
  let byLanguage = namesCache.get(countries);
  if (!byLanguage) {
    byLanguage = new Map();
    namesCache.set(countries, byLanguage);
  }
  const key = `${flagField} ${language}`;
  let names = byLanguage.get(key);
  if (!names) {
    const asStored = language.split('-')[0]?.toLowerCase() === STORED_LANGUAGE;
    const found = new Map<string, NamedOption>();
    for (const row of countries) {
      const flag = row[flagField];
      const label = asStored
        ? row.name
        : countryName(iso2FromFlag(typeof flag === 'string' ? flag : null), language, row.name);
      found.set(String(row.id), { value: String(row.id), label, stored: row.name });
    }
    names = found;
    byLanguage.set(key, names);
  }
  return names;
}

/** A picker's options, sorted by name in the language, made once per set of names (each cell asks). */
const optionsCache = new WeakMap<ReadonlyMap<string, NamedOption>, readonly NamedOption[]>();

export function sortedOptions(names: ReadonlyMap<string, NamedOption>, language: string): readonly NamedOption[] {
  if (names.size === 0) return noOptions;
  let options = optionsCache.get(names);
  if (!options) {
    const collator = new Intl.Collator(language);
    options = [...names.values()].sort((a, b) => collator.compare(a.label, b.label));
    optionsCache.set(names, options);
  }
  return options;
}

/**
 * How the rows of `resource` are named on screen: a country in the
 * interface's language (its flag emoji spells its ISO code, Intl names it;
 * the stored English name in English, or when neither knows it), anything
 * else as stored.
 */
export function useLocalizedNames(resource: string | undefined): LocalizedNames {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const localized = localizesNames(resource);
  const countries = useCountries();
  const flagField = localized ? findEntity(resource ?? '')?.regionFlag : undefined;
  const byId = flagField ? countryNames(countries, flagField, language) : noNames;
  const name = useCallback(
    (id: unknown, stored: string) =>
      id === null || id === undefined ? stored : (byId.get(String(id))?.label ?? stored),
    [byId],
  );
  const options = sortedOptions(byId, language);
  return useMemo(() => ({ localized, options, name }), [localized, options, name]);
}

/** A referenced row's name as `useLocalizedNames` gives it: a country in the interface's language. */
export function LocalizedName({ resource, id, stored }: { resource: string; id: unknown; stored: string }) {
  return <>{useLocalizedNames(resource).name(id, stored)}</>;
}

/** Text as a search compares it: lower case, without accents ("États" is found by "etats"). */
export function searchKey(text: string, language: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase(language);
}

/**
 * A picker's filter over its own options: those whose name, or stored name
 * (a French user typing "Germany" finds Allemagne), holds the search,
 * accents and case aside.
 */
export function nameFilter(language: string) {
  const holds = (text: unknown, wanted: string) =>
    typeof text === 'string' && searchKey(text, language).includes(wanted);
  return ({ options, search }: { options: ComboboxParsedItem[]; search: string }): ComboboxParsedItem[] => {
    const wanted = searchKey(search.trim(), language);
    if (!wanted) return options;
    return options.filter(
      (option) => 'label' in option && (holds(option.label, wanted) || holds((option as NamedOption).stored, wanted)),
    );
  };
}
