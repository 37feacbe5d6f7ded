import { describe, expect, it } from 'vitest';
import { countryNames, localizesNames, nameFilter, searchKey, sortedOptions } from './localized-names.tsx';
import type { Country } from './reference-data.ts';

const country = (id: number, name: string, emoji: string | null): Country => ({
  id,
  name,
  emoji,
  phoneCode: null,
  createdAt: '2024-01-01T00:00:00Z',
});

const countries: Country[] = [
  country(1, 'Germany', '🇩🇪'),
  country(2, 'United States', '🇺🇸'),
  country(3, 'Belgium', '🇧🇪'),
  country(4, 'Atlantis', '🏳️'),
  country(5, 'Spain', '🇪🇸'),
  country(6, 'Czech Republic', '🇨🇿'),
];

describe('names of referenced rows', () => {
  it('are localized for countries only, which the description flags', () => {
    expect(localizesNames('countries')).toBe(true);
    expect(localizesNames('companies')).toBe(false);
    expect(localizesNames('states')).toBe(false);
    expect(localizesNames(undefined)).toBe(false);
  });

  it('name each country in the language from its flag, else as stored', () => {
    const french = countryNames(countries, 'emoji', 'fr');
    expect(french.get('1')).toEqual({ value: '1', label: 'Allemagne', stored: 'Germany' });
    expect(french.get('2')?.label).toBe('États-Unis');
    expect(french.get('4')?.label).toBe('Atlantis');
    expect(french.get('6')?.label).toBe('Tchéquie');
    // English reads the stored names, which the server searches and sorts by (not Intl's "Czechia").
    expect(countryNames(countries, 'emoji', 'en').get('6')?.label).toBe('Czech Republic');
    expect(countryNames(countries, 'emoji', 'en-GB').get('1')?.label).toBe('Germany');
    // Worked out once per list and language.
    expect(countryNames(countries, 'emoji', 'fr')).toBe(french);
  });

  it('offer the countries in the alphabetical order of the language', () => {
    const labels = sortedOptions(countryNames(countries, 'emoji', 'fr'), 'fr').map((option) => option.label);
    expect(labels).toEqual(['Allemagne', 'Atlantis', 'Belgique', 'Espagne', 'États-Unis', 'Tchéquie']);
  });

  it('are searched in the language, accents and case aside', () => {
    const options = sortedOptions(countryNames(countries, 'emoji', 'fr'), 'fr');
    const search = (text: string) =>
      nameFilter('fr')({ options: [...options], search: text }).map((option) =>
        'label' in option ? option.label : '',
      );
    expect(search('Allem')).toEqual(['Allemagne']);
    expect(search('etats')).toEqual(['États-Unis']);
    expect(search('  ')).toHaveLength(6);
    // The stored English name finds its country too.
    expect(search('germany')).toEqual(['Allemagne']);
    expect(search('Narnia')).toEqual([]);
    expect(searchKey('Île-de-France', 'fr')).toBe('ile-de-france');
  });
});
