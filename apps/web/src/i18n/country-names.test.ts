import { describe, expect, it } from 'vitest';
import { countryName, iso2FromFlag } from './country-names.ts';

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

describe('a flag emoji', () => {
  it('spells its country code in regional indicators', () => {
    expect(iso2FromFlag('🇫🇷')).toBe('FR');
    expect(iso2FromFlag('🇺🇸')).toBe('US');
    expect(iso2FromFlag('🇬🇧')).toBe('GB');
    expect(iso2FromFlag(' 🇩🇪 ')).toBe('DE');
  });

  it('gives no code when it is not two regional indicators', () => {
    expect(iso2FromFlag(null)).toBeNull();
    expect(iso2FromFlag('')).toBeNull();
    expect(iso2FromFlag('🏳️')).toBeNull();
    expect(iso2FromFlag('🇫')).toBeNull();
    expect(iso2FromFlag('🇫🇷🇩🇪')).toBeNull();
    expect(iso2FromFlag('FR')).toBeNull();
    // England: a black flag and tag characters, no country code.
    expect(iso2FromFlag('🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}')).toBeNull();
  });

  it('names the country in the interface language', () => {
    expect(countryName(iso2FromFlag('🇩🇪'), 'fr', 'Germany')).toBe('Allemagne');
  });
});
