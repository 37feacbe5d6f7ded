import { describe, expect, it } from 'vitest';
import { countryName } from './country-names.ts';

describe('a country is named', () => {
  it('in the interface language from its ISO code', () => {
    expect(countryName('DE', 'fr', 'Germany')).toBe('Allemagne');
    expect(countryName('us', 'fr', 'United States')).toBe('États-Unis');
    expect(countryName('DE', 'en', 'Germany')).toBe('Germany');
  });

  it('as stored when the code is missing or unknown', () => {
    expect(countryName(null, 'fr', 'Germany')).toBe('Germany');
    expect(countryName('ZZ', 'fr', 'Nowhere')).toBe('Nowhere');
    expect(countryName('AA', 'fr', 'Private')).toBe('Private');
    expect(countryName('not a code', 'fr', 'Odd')).toBe('Odd');
  });
});
